package clientbench.harness.probe;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Two libc calls through the Java FFM API: the process's CPU clock in nanoseconds ({@code clock_gettime}) and the
 * calling thread's timer slack ({@code prctl}). Built for 21, where FFM is still a preview, the API is reached by
 * reflection once; on a JDK or OS without it, {@link #unavailable()} says why. A call that fails returns -1, and its
 * caller records the figure as failed.
 */
public final class Libc {

    private static final int CLOCK_PROCESS_CPUTIME_ID = 2;
    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;

    /** {@code (int clockId) -> int}, writing into {@link #TIMESPEC}. */
    private static final MethodHandle CLOCK_GETTIME;
    /** {@code (int option, long arg2) -> int}. */
    private static final MethodHandle PRCTL;
    /** A {@code struct timespec} in native memory, read through a buffer view; guarded by the class. */
    private static final ByteBuffer TIMESPEC;
    private static final String UNAVAILABLE;

    static {
        MethodHandle clock = null;
        MethodHandle prctl = null;
        ByteBuffer timespec = null;
        String why = null;
        try {
            Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
            Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
            Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
            Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
            Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
            Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
            Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
            Class<?> arenaClass = Class.forName("java.lang.foreign.Arena");
            Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
            Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
            Method find = lookupClass.getMethod("find", String.class);
            Method of = descriptorClass.getMethod("of", layoutClass, layoutClass.arrayType());
            Method downcall = linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass, optionClass.arrayType());
            Object javaInt = valueLayoutClass.getField("JAVA_INT").get(null);
            Object javaLong = valueLayoutClass.getField("JAVA_LONG").get(null);
            Object address = valueLayoutClass.getField("ADDRESS").get(null);

            Object segment = arenaClass.getMethod("allocate", long.class, long.class)
                    .invoke(arenaClass.getMethod("global").invoke(null), 16L, 8L);
            timespec = ((ByteBuffer) segmentClass.getMethod("asByteBuffer").invoke(segment)).order(ByteOrder.nativeOrder());
            Object clockSymbol = ((java.util.Optional<?>) find.invoke(lookup, "clock_gettime")).orElseThrow();
            MethodHandle raw = (MethodHandle) downcall.invoke(linker, clockSymbol,
                    of.invoke(null, javaInt, layouts(layoutClass, javaInt, address)), Array.newInstance(optionClass, 0));
            clock = MethodHandles.insertArguments(raw, 1, segment);

            // prctl is variadic: int prctl(int option, ...); its second argument is an unsigned long.
            Object options = Array.newInstance(optionClass, 1);
            Array.set(options, 0, optionClass.getMethod("firstVariadicArg", int.class).invoke(null, 1));
            Object prctlSymbol = ((java.util.Optional<?>) find.invoke(lookup, "prctl")).orElseThrow();
            prctl = (MethodHandle) downcall.invoke(linker, prctlSymbol,
                    of.invoke(null, javaInt, layouts(layoutClass, javaInt, javaLong)), options);
            if ((int) clock.invoke(CLOCK_PROCESS_CPUTIME_ID) != 0) {
                throw new IllegalStateException("clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
            }
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ite && ite.getCause() != null
                    ? ite.getCause() : t;
            why = "the FFM API is not usable here (" + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")";
            clock = null;
            prctl = null;
        }
        CLOCK_GETTIME = clock;
        PRCTL = prctl;
        TIMESPEC = timespec;
        UNAVAILABLE = why;
    }

    private Libc() {
    }

    private static Object layouts(Class<?> layoutClass, Object... layouts) {
        Object array = Array.newInstance(layoutClass, layouts.length);
        for (int i = 0; i < layouts.length; i++) {
            Array.set(array, i, layouts[i]);
        }
        return array;
    }

    /** Why the calls cannot be made in this JVM, or null when they can. */
    public static String unavailable() {
        return UNAVAILABLE;
    }

    /** The CPU time of every thread of this process, ended ones included, in ns; -1 where unavailable. */
    static synchronized long processCpuNanos() {
        if (CLOCK_GETTIME == null) {
            return -1;
        }
        try {
            if ((int) CLOCK_GETTIME.invoke(CLOCK_PROCESS_CPUTIME_ID) != 0) {
                return -1;
            }
        } catch (Throwable t) {
            return -1;
        }
        return TIMESPEC.getLong(0) * 1_000_000_000L + TIMESPEC.getLong(8);
    }

    /**
     * Sets the calling thread's timer slack (how far past its deadline the kernel may wake a sleeping thread, 50 us by
     * default) to {@code nanos} > 0 and returns the slack now in force, or -1 where it cannot be set.
     */
    public static long timerSlackNanos(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("timer slack must be > 0 ns (0 restores the default), was " + nanos);
        }
        if (PRCTL == null) {
            return -1;
        }
        try {
            if ((int) PRCTL.invoke(PR_SET_TIMERSLACK, nanos) != 0) {
                return -1;
            }
            return (int) PRCTL.invoke(PR_GET_TIMERSLACK, 0L);
        } catch (Throwable t) {
            return -1;
        }
    }
}
