package io.extsock.rdma.ffi;

import static io.extsock.rdma.ffi.NativeCalls.C_INT;
import static io.extsock.rdma.ffi.NativeCalls.C_LONG;
import static io.extsock.rdma.ffi.NativeCalls.C_POINTER;
import static io.extsock.rdma.ffi.NativeCalls.rethrow;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The C library calls the binding needs around rdma-core: the event thread's wait (poll, an
 * eventfd to wake it, non-blocking channel descriptors) and the memory-lock limit for
 * registration errors. Every machine with a JDK has these, so they are tested in the default
 * suite.
 */
public final class Libc {

    private static final MethodHandle POLL = libc("poll", FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_INT));
    private static final MethodHandle EVENTFD = libc("eventfd", FunctionDescriptor.of(C_INT, C_INT, C_INT));
    private static final MethodHandle READ = libc("read", FunctionDescriptor.of(C_LONG, C_INT, C_POINTER, C_LONG));
    private static final MethodHandle WRITE = libc("write", FunctionDescriptor.of(C_LONG, C_INT, C_POINTER, C_LONG));
    private static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(C_INT, C_INT));
    private static final MethodHandle FCNTL = libc("fcntl", FunctionDescriptor.of(C_INT, C_INT, C_INT, C_INT));
    private static final MethodHandle GETRLIMIT = libc("getrlimit", FunctionDescriptor.of(C_INT, C_INT, C_POINTER));
    private static final MethodHandle STRERROR = NativeCalls.LINKER.downcallHandle(
            NativeCalls.LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(C_POINTER, C_INT));

    /** The value of {@code rlim_cur} that means no limit. */
    public static final long RLIM_INFINITY = -1L;

    private Libc() {
    }

    private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
        return NativeCalls.LINKER.downcallHandle(NativeCalls.LINKER.defaultLookup().find(name).orElseThrow(),
                descriptor, Linker.Option.captureCallState("errno"));
    }

    /** @return the C library's text for an errno value, such as "Cannot allocate memory" */
    public static String strerror(int errno) {
        try {
            return NativeCalls.string((MemorySegment) STRERROR.invokeExact(errno));
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /**
     * Waits for any of {@code count} {@code struct pollfd} entries.
     *
     * @return how many entries have events, 0 on timeout, or -1 when a signal interrupted the wait
     */
    public static int poll(MemorySegment pollfds, int count, int timeoutMillis) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = NativeCalls.errnoState(arena);
            int ready = (int) POLL.invokeExact(state, pollfds, (long) count, timeoutMillis);
            if (ready < 0) {
                int errno = NativeCalls.errno(state);
                if (errno == RdmaConstants.EINTR) {
                    return -1;
                }
                throw failure("poll", errno);
            }
            return ready;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** @return a new non-blocking, close-on-exec eventfd counting from zero */
    public static int eventfd() throws IOException {
        return check("eventfd", (state) -> (int) EVENTFD.invokeExact(state, 0,
                RdmaConstants.EFD_NONBLOCK | RdmaConstants.EFD_CLOEXEC));
    }

    /** Adds one to an eventfd's counter, which makes it readable. */
    public static void signal(int eventfd) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = arena.allocate(C_LONG);
            one.set(C_LONG, 0, 1L);
            MemorySegment state = NativeCalls.errnoState(arena);
            long written = (long) WRITE.invokeExact(state, eventfd, one, 8L);
            if (written != 8) {
                throw failure("write to eventfd " + eventfd, NativeCalls.errno(state));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** Reads and clears a non-blocking eventfd's counter. @return the counter, 0 if it was not signalled */
    public static long drain(int eventfd) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(C_LONG);
            MemorySegment state = NativeCalls.errnoState(arena);
            long read = (long) READ.invokeExact(state, eventfd, value, 8L);
            if (read == 8) {
                return value.get(C_LONG, 0);
            }
            int errno = NativeCalls.errno(state);
            if (read < 0 && errno == RdmaConstants.EAGAIN) {
                return 0;
            }
            throw failure("read from eventfd " + eventfd, errno);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    /** Closes a descriptor this binding opened. */
    public static void close(int fd) throws IOException {
        check("close(" + fd + ")", (state) -> (int) CLOSE.invokeExact(state, fd));
    }

    /** Makes a descriptor's reads return EAGAIN instead of blocking (rdma_get_cm_event's, ibv_get_cq_event's). */
    public static void setNonBlocking(int fd) throws IOException {
        int flags = check("fcntl(F_GETFL)", (state) -> (int) FCNTL.invokeExact(state, fd, RdmaConstants.F_GETFL, 0));
        check("fcntl(F_SETFL)", (state) -> (int) FCNTL.invokeExact(state, fd, RdmaConstants.F_SETFL,
                flags | RdmaConstants.O_NONBLOCK));
    }

    /** @return RLIMIT_MEMLOCK's soft limit in bytes, {@link #RLIM_INFINITY} for none */
    public static long memlockLimit() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment limit = arena.allocate(RdmaStructs.RLIMIT.layout());
            check("getrlimit(RLIMIT_MEMLOCK)", (state) -> (int) GETRLIMIT.invokeExact(state,
                    RdmaConstants.RLIMIT_MEMLOCK, limit));
            return limit.get(C_LONG, RdmaStructs.RLIMIT.offset("rlim_cur"));
        }
    }

    /** A call that returns -1 and sets errno on failure. */
    @FunctionalInterface
    interface ErrnoCall {
        int call(MemorySegment errnoState) throws Throwable;
    }

    static int check(String what, ErrnoCall call) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = NativeCalls.errnoState(arena);
            int result = call.call(state);
            if (result < 0) {
                throw failure(what, NativeCalls.errno(state));
            }
            return result;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable thrown) {
            throw rethrow(thrown);
        }
    }

    static IOException failure(String what, int errno) {
        return new IOException(what + " failed: " + strerror(errno) + " (errno " + errno + ")");
    }
}
