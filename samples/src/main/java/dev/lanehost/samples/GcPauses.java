package dev.lanehost.samples;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's stop-the-world GC pauses as they happen, from its GC notifications: the longest since the renderer last
 * asked. Beans that report pauses ({@code "ZGC Major Pauses"}, {@code "Shenandoah Pauses"}) are used when the
 * collector has them; otherwise every bean but the concurrent ones ({@code "G1 Concurrent GC"}), whose durations
 * are cycles the application ran through, not pauses.
 */
public final class GcPauses implements AutoCloseable {
    private final AtomicLong longestNanos = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;

    public GcPauses() {
        List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
        boolean pauseBeans = beans.stream().anyMatch(bean -> bean.getName().contains("Pauses"));
        for (GarbageCollectorMXBean bean : beans) {
            boolean pauses = pauseBeans ? bean.getName().contains("Pauses") : !bean.getName().contains("Concurrent");
            if (pauses && bean instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    /** The beans listened to, for output. */
    public int sources() {
        return emitters.size();
    }

    /** The longest pause since the last call, in nanoseconds; 0 if none. Any thread. */
    public long takeLongest() {
        return longestNanos.getAndSet(0);
    }

    private void onNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long nanos = info.getGcInfo().getDuration() * 1_000_000L; // the bean reports whole milliseconds
        longestNanos.accumulateAndGet(nanos, Math::max);
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException ignored) {
                // already gone
            }
        }
        emitters.clear();
    }
}
