package io.extsock.contract;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * Virtual threads (JDK 21+) reached through method handles: the test sources compile with
 * --release 17, and the tests that use this run only on JDK 21 or later
 * ({@code @EnabledForJreRange(min = JRE.JAVA_21)}).
 */
public final class VirtualThreads {

    private static final MethodHandle START = find(Thread.class, "startVirtualThread",
            MethodType.methodType(Thread.class, Runnable.class), true);
    private static final MethodHandle PER_TASK_EXECUTOR = find(java.util.concurrent.Executors.class,
            "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class), true);

    private VirtualThreads() {
    }

    /** Starts a virtual thread running the task. */
    public static Thread start(Runnable task) {
        try {
            return (Thread) START.invokeExact(task);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot start a virtual thread", t);
        }
    }

    /** An executor that runs each task on a new virtual thread. */
    public static ExecutorService perTaskExecutor() {
        try {
            return (ExecutorService) PER_TASK_EXECUTOR.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("cannot make a virtual thread executor", t);
        }
    }

    /** Waits until the thread is parked or blocked (a virtual thread blocked in I/O is WAITING). */
    public static void awaitBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING
                && thread.getState() != Thread.State.BLOCKED) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the thread never blocked: " + thread.getState());
            }
            Thread.sleep(1);  // a polling interval
        }
    }

    private static MethodHandle find(Class<?> owner, String name, MethodType type, boolean isStatic) {
        try {
            return isStatic ? MethodHandles.publicLookup().findStatic(owner, name, type)
                    : MethodHandles.publicLookup().findVirtual(owner, name, type);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;  // JDK 17: the tests that need it do not run there
        }
    }

    /**
     * Direct and heap memory in use after a GC, in words: {@code direct=<bytes> heap=<bytes>}.
     * (Through reflection: the api module's tests compile as part of a module that does not
     * read java.management.)
     */
    public static String memory() {
        System.gc();
        long direct = -1;
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Class<?> bufferPool = Class.forName("java.lang.management.BufferPoolMXBean");
            for (Object pool : (List<?>) factory.getMethod("getPlatformMXBeans", Class.class).invoke(null, bufferPool)) {
                if ("direct".equals(bufferPool.getMethod("getName").invoke(pool))) {
                    direct = (Long) bufferPool.getMethod("getMemoryUsed").invoke(pool);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the direct buffer pool", e);
        }
        Runtime runtime = Runtime.getRuntime();
        return "direct=" + direct + " heap=" + (runtime.totalMemory() - runtime.freeMemory());
    }

    /**
     * A JFR recording of virtual threads pinning their carriers (jdk.VirtualThreadPinned, every
     * one: threshold 0) while it is open. Through reflection, as {@link #memory()}.
     */
    public static final class PinnedRecording implements AutoCloseable {
        private final Object recording;
        private final Class<?> recordingClass;
        private final Path file;

        public PinnedRecording() throws Exception {
            recordingClass = Class.forName("jdk.jfr.Recording");
            recording = recordingClass.getConstructor().newInstance();
            Object settings = recordingClass.getMethod("enable", String.class).invoke(recording, "jdk.VirtualThreadPinned");
            Class<?> eventSettings = Class.forName("jdk.jfr.EventSettings");
            eventSettings.getMethod("withThreshold", Duration.class).invoke(settings, Duration.ZERO);
            eventSettings.getMethod("withStackTrace").invoke(settings);
            file = Files.createTempFile("extsock-pinned", ".jfr");
            recordingClass.getMethod("start").invoke(recording);
        }

        /** Stops the recording and returns the pinned events it saw, each with its stack. */
        public List<String> stopAndReadPinned() throws Exception {
            recordingClass.getMethod("stop").invoke(recording);
            recordingClass.getMethod("dump", Path.class).invoke(recording, file);
            Class<?> recordingFile = Class.forName("jdk.jfr.consumer.RecordingFile");
            List<String> pinned = new ArrayList<>();
            for (Object event : (List<?>) recordingFile.getMethod("readAllEvents", Path.class).invoke(null, file)) {
                Object type = event.getClass().getMethod("getEventType").invoke(event);
                if ("jdk.VirtualThreadPinned".equals(type.getClass().getMethod("getName").invoke(type))) {
                    List<String> frames = frames(event);
                    if (!inFlightRecorder(frames)) {
                        pinned.add(event + "all frames: " + frames);
                    }
                }
            }
            return pinned;
        }

        /**
         * Every frame of the event's stack, innermost first, as {@code type.method:line}: its
         * printed form shows five, which can end inside the JDK before reaching the code that pinned.
         */
        private static List<String> frames(Object event) throws ReflectiveOperationException {
            List<String> described = new ArrayList<>();
            Object stackTrace = event.getClass().getMethod("getStackTrace").invoke(event);
            if (stackTrace == null) {
                return described;
            }
            for (Object frame : (List<?>) stackTrace.getClass().getMethod("getFrames").invoke(stackTrace)) {
                Object method = frame.getClass().getMethod("getMethod").invoke(frame);
                Object type = method.getClass().getMethod("getType").invoke(method);
                described.add(type.getClass().getMethod("getName").invoke(type) + "."
                        + method.getClass().getMethod("getName").invoke(method) + ":"
                        + frame.getClass().getMethod("getLineNumber").invoke(frame));
            }
            return described;
        }

        /**
         * Whether the pinning happened inside the flight recorder itself: this recording turns on
         * every event, and an event's string fields go into JFR's string pool under a monitor that
         * a virtual thread cannot leave its carrier in when contended (JDK 25: "Freeze or preempt
         * failed", from an {@code IwarpConnectedEvent} committed by one of 2,000 connecting virtual
         * threads). The observer's own, not the code under test's.
         */
        private static boolean inFlightRecorder(List<String> frames) {
            return !frames.isEmpty() && frames.get(0).startsWith("jdk.jfr.internal.");
        }

        @Override
        public void close() throws Exception {
            recordingClass.getMethod("close").invoke(recording);
            Files.deleteIfExists(file);
        }
    }
}
