package dev.lanehost.samples;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostSetup;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The Java half of the C test harness sample ({@code samples/src/test/c/test_shop.c}, a cmocka suite): a shop whose
 * two actors live on the lane "shop", which the C test drives itself, so every turn runs on its thread when it says.
 *
 * <p>The <b>stock</b> keeps a level per item; the <b>ledger</b> counts the units sold per item, told by the stock
 * after each sale (a message, so it runs in a later turn than the sale). What the setup exports:
 * <ul>
 *   <li>the lane "shop";</li>
 *   <li>the gate "restock": {@code {"item": text, "count": n}} adds n (at least 1) of the item and answers its new
 *       level; a count below 1 throws, so the call answers {@code LANEHOST_CALLBACK_FAILED} and the stock halts;</li>
 *   <li>the gate "take": the same arguments; answers true and tells the ledger of the sale if n are in stock, else
 *       false, and nothing changes;</li>
 *   <li>the gates "level" and "sold": an item's name (text) in, its level or the units sold of it out (0 for an
 *       item never seen);</li>
 *   <li>the signal "delivery": each firing adds one of the item its payload names (UTF-8). The stock creates it in
 *       its start, so it is exported from the lane's first drive on.</li>
 * </ul>
 */
public final class ShopSetup implements HostSetup {
    /** One item and a count, as the gates "restock" and "take" receive them. */
    private record Order(String item, long count) {
        /** Reads {@code {"item": text, "count": n}}; says what it expected, naming the argument's class only. */
        static Order of(String gate, Object args) {
            if (args instanceof Map<?, ?> map && map.get("item") instanceof String item
                    && map.get("count") instanceof Long count) {
                return new Order(item, count);
            }
            throw new IllegalArgumentException(gate + " takes {\"item\": text, \"count\": n}, got a "
                    + (args == null ? "null" : args.getClass().getName()));
        }
    }

    /** What the stock tells the ledger after a sale. */
    private record Sale(String item, long count) {
    }

    /** Touched only in its turns, which run on the C test's thread inside its drives. */
    private static final class Stock implements Behavior {
        private final Map<String, Long> levels = new HashMap<>();
        private final ActorRef ledger;
        private final HostAbi abi;

        Stock(ActorRef ledger, HostAbi abi) {
            this.ledger = ledger;
            this.abi = abi;
        }

        @Override
        public void started(ActorContext context) {
            abi.exportSignal("delivery", context.signal(SignalMode.MULTISHOT,
                    (turn, payload) -> levels.merge(new String(payload, StandardCharsets.UTF_8), 1L, Long::sum), null));
        }

        @Override
        public void receive(ActorContext context, Object message) {
            throw new IllegalArgumentException("the stock takes calls and deliveries only, got a "
                    + message.getClass().getName());
        }

        long restock(Order order) {
            if (order.count() < 1) {
                throw new IllegalArgumentException("restock takes a count of at least 1, got " + order.count());
            }
            return levels.merge(order.item(), order.count(), Long::sum);
        }

        boolean take(Order order) {
            long level = level(order.item());
            if (order.count() < 1 || order.count() > level) {
                return false;
            }
            levels.put(order.item(), level - order.count());
            ledger.tell(new Sale(order.item(), order.count()));
            return true;
        }

        long level(String item) {
            return levels.getOrDefault(item, 0L);
        }
    }

    /** Counts the units sold per item, as the stock tells it. */
    private static final class Ledger implements Behavior {
        private final Map<String, Long> sold = new HashMap<>();

        @Override
        public void receive(ActorContext context, Object message) {
            if (!(message instanceof Sale sale)) {
                throw new IllegalArgumentException("the ledger takes sales, got a " + message.getClass().getName());
            }
            sold.merge(sale.item(), sale.count(), Long::sum);
        }
    }

    /** Public with no arguments: {@code lanehost_embed_start} creates it by name. */
    public ShopSetup() {
    }

    @Override
    public void setup(ActorRuntime runtime, HostAbi abi) {
        abi.exportLane(runtime.registerLane("shop"));
        Ledger ledger = new Ledger();
        ActorRef ledgerRef = runtime.spawnOnLane("shop", "ledger", () -> ledger);
        Stock stock = new Stock(ledgerRef, abi);
        ActorRef stockRef = runtime.spawnOnLane("shop", "stock", () -> stock);
        abi.exportGate("restock", CallGate.open(stockRef, (context, args) -> stock.restock(Order.of("restock", args))));
        abi.exportGate("take", CallGate.open(stockRef, (context, args) -> stock.take(Order.of("take", args))));
        abi.exportGate("level", CallGate.open(stockRef, (context, item) -> stock.level(itemName("level", item))));
        abi.exportGate("sold", CallGate.open(ledgerRef,
                (context, item) -> ledger.sold.getOrDefault(itemName("sold", item), 0L)));
    }

    private static String itemName(String gate, Object args) {
        if (args instanceof String item) {
            return item;
        }
        throw new IllegalArgumentException(gate + " takes an item's name (text), got a "
                + (args == null ? "null" : args.getClass().getName()));
    }
}
