import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import java.nio.file.*;
public class Where {
    public static void main(String[] a) throws Throwable {
        Linker l = Linker.nativeLinker();
        long def = l.defaultLookup().find("memcpy").get().address();
        MethodHandle dlsym = l.downcallHandle(l.defaultLookup().find("dlsym").get(), FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            long viaDlsym = (long) dlsym.invokeExact(0L, arena.allocateFrom("memcpy"));
            long libcBase = 0;
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                if (line.contains("libc.so.6")) { libcBase = Long.parseUnsignedLong(line.substring(0, line.indexOf('-')), 16); break; }
            }
            System.out.printf("java defaultLookup memcpy: libc+0x%x, dlsym(RTLD_DEFAULT): libc+0x%x%n", def - libcBase, viaDlsym - libcBase);
        }
    }
}
