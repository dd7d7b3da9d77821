package io.extsock.bench;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * A loopback TCP connection made and used through the C library (jnr-ffi), not the JDK, whose
 * two ends wait for input one of four ways: blocking inside {@code read}; {@code poll}, then a
 * non-blocking {@code read}; {@code epoll_wait} on an epoll instance of the end's own, then
 * the read; or a receive queued in an io_uring of the end's own, which one {@code
 * io_uring_enter} submits and waits for. The last three also watch an eventfd, through which
 * another thread can end them ({@link End#wakeUp}): that is what an engine's wait needs and a
 * blocked read cannot give. Linux only. {@link NativeWaitFloor}'s connection.
 */
final class NativeLink implements Closeable {

    /** How an end waits for input. */
    enum Wait {
        /** The thread sleeps inside read(2), as java.net.Socket's does; nothing else can end it. */
        BLOCKING_READ,
        /** poll(2) on the socket and the end's eventfd, then a non-blocking read. */
        POLL_THEN_READ,
        /** epoll_wait(2) on an epoll instance watching the socket and the eventfd, then a non-blocking read. */
        EPOLL_THEN_READ,
        /**
         * A receive on the socket and a read of the eventfd queued in an io_uring: one
         * io_uring_enter(2) submits the receive and sleeps until it, or the eventfd's read, completes.
         */
        IO_URING
    }

    /** The bound calls, loaded at first use. */
    private static final class Libc {
        static final LinuxSocketCalls CALLS = load();
        static final Runtime RUNTIME = Runtime.getRuntime(CALLS);
        /**
         * struct epoll_event: packed on x86-64 (12 octets, its data at 4), naturally aligned
         * elsewhere (16, at 8), as Linux's {@code __EPOLL_PACKED} says.
         */
        static final boolean EPOLL_EVENT_PACKED = Platform.getNativePlatform().getCPU() == Platform.CPU.X86_64;
        static final int EPOLL_EVENT_SIZE = EPOLL_EVENT_PACKED ? 12 : 16;
        static final int EPOLL_DATA_OFFSET = EPOLL_EVENT_PACKED ? 4 : 8;

        private static LinuxSocketCalls load() {
            Platform platform = Platform.getNativePlatform();
            if (platform.getOS() != Platform.OS.LINUX) {
                throw new UnsupportedOperationException("native links use Linux system calls; this is " + platform.getOS());
            }
            return LibraryLoader.create(LinuxSocketCalls.class).failImmediately()
                    .load(platform.getStandardCLibraryName());
        }
    }

    /** The epoll data, and the io_uring tag, that names the eventfd (the socket's is 0). */
    private static final long WAKE_UP_TAG = 1;
    private static final long SOCKET_TAG = 0;

    /** One end: a socket, and for the waiting ways the eventfd (and epoll instance) its waits watch. */
    static final class End implements Closeable {
        private final LinuxSocketCalls c = Libc.CALLS;
        private final Wait wait;
        private final int socket;
        private final int wakeUp;
        private final int epoll;
        private final IoUring ring;
        /**
         * Held by a receive from its queueing to its reaping, and by close to unmap the rings: a
         * close while a receive waits first shuts the socket down, which ends the receive, then
         * waits for it to leave the rings, which it would otherwise read after they were unmapped.
         */
        private final Object ringLock = new Object();
        /** An io_uring end's receive in flight: the buffer it fills, or null if none is. */
        private Pointer receiving;
        /** Whether an io_uring end's read of the eventfd is in flight (the next wake-up completes it). */
        private boolean wakeUpArmed;
        /** What the last reap found: the receive's result (if it completed) and whether a wake-up came. */
        private int received;
        private boolean receiveDone;
        private boolean wokenUp;
        /**
         * System calls this end's own thread made to read, write and wait (not another thread's
         * wake-ups), for the floor's count a round trip.
         */
        private long calls;
        private final Pointer pollFds;
        private final Pointer events;
        /** What a wake-up writes to the eventfd: 1, added to its count. */
        private final Pointer one = Memory.allocateDirect(Libc.RUNTIME, Long.BYTES);
        /** Where the waiter reads the eventfd's count into (its own: a wake-up may write meanwhile). */
        private final Pointer drained = Memory.allocateDirect(Libc.RUNTIME, Long.BYTES);
        private boolean closed;

        /** Takes the socket: closes it if this end cannot be made. */
        private End(int socket, Wait wait) throws IOException {
            this.socket = socket;
            this.wait = wait;
            int madeWakeUp = -1;
            int madeEpoll = -1;
            IoUring madeRing = null;
            try {
                setNoDelay(socket);
                if (wait == Wait.IO_URING) {
                    // Both left blocking: the ring waits for them, and a read queued on a blocking
                    // eventfd stays in flight until a wake-up.
                    madeWakeUp = check("eventfd", c.eventfd(0, LinuxSocketCalls.EFD_CLOEXEC));
                    madeRing = IoUring.open(4);
                } else if (wait != Wait.BLOCKING_READ) {
                    int flags = check("fcntl(F_GETFL)", c.fcntl(socket, LinuxSocketCalls.F_GETFL, 0));
                    check("fcntl(F_SETFL, O_NONBLOCK)",
                            c.fcntl(socket, LinuxSocketCalls.F_SETFL, flags | LinuxSocketCalls.O_NONBLOCK));
                    madeWakeUp = check("eventfd", c.eventfd(0, LinuxSocketCalls.EFD_CLOEXEC | LinuxSocketCalls.EFD_NONBLOCK));
                }
                if (wait == Wait.EPOLL_THEN_READ) {
                    madeEpoll = check("epoll_create1", c.epoll_create1(LinuxSocketCalls.EPOLL_CLOEXEC));
                    watch(madeEpoll, socket, 0);
                    watch(madeEpoll, madeWakeUp, WAKE_UP_TAG);
                }
            } catch (IOException | RuntimeException e) {
                if (madeRing != null) {
                    Closing.quietly(madeRing, e);
                }
                closeQuietly(madeEpoll);
                closeQuietly(madeWakeUp);
                closeQuietly(socket);
                throw e;
            }
            this.wakeUp = madeWakeUp;
            this.epoll = madeEpoll;
            this.ring = madeRing;
            one.putLong(0, 1);
            this.pollFds = Memory.allocateDirect(Libc.RUNTIME, 2 * LinuxSocketCalls.POLLFD_SIZE);
            // Filled once, not before each wait: the measured poll does no setup the epoll wait skips.
            pollFd(0, socket);
            pollFd(LinuxSocketCalls.POLLFD_SIZE, wakeUp);
            this.events = Memory.allocateDirect(Libc.RUNTIME, 2 * Libc.EPOLL_EVENT_SIZE);
        }

        private void setNoDelay(int fd) throws IOException {
            Pointer on = Memory.allocateDirect(Libc.RUNTIME, Integer.BYTES);
            on.putInt(0, 1);
            check("setsockopt(TCP_NODELAY)",
                    c.setsockopt(fd, LinuxSocketCalls.IPPROTO_TCP, LinuxSocketCalls.TCP_NODELAY, on, Integer.BYTES));
        }

        private void watch(int epollFd, int fd, long tag) throws IOException {
            Pointer event = Memory.allocateDirect(Libc.RUNTIME, Libc.EPOLL_EVENT_SIZE);
            event.putInt(0, LinuxSocketCalls.EPOLLIN);
            event.putLong(Libc.EPOLL_DATA_OFFSET, tag);
            check("epoll_ctl(EPOLL_CTL_ADD)", c.epoll_ctl(epollFd, LinuxSocketCalls.EPOLL_CTL_ADD, fd, event));
        }

        Wait waitWay() {
            return wait;
        }

        /**
         * Reads exactly {@code length} octets into {@code buffer}; a waiting end waits before each
         * read, as an engine's waiter does (a wake-up meanwhile just waits again).
         */
        void readFully(Pointer buffer, int length) throws IOException {
            int done = 0;
            while (done < length) {
                Pointer into = done == 0 ? buffer : buffer.slice(done);
                if (wait == Wait.IO_URING) {
                    done += receive(into, length - done);
                    continue;
                }
                if (wait != Wait.BLOCKING_READ) {
                    awaitInput();
                }
                calls++;
                long n = c.read(socket, into, length - done);
                if (n > 0) {
                    done += (int) n;
                } else if (n == 0) {
                    throw new EOFException("the other end closed");
                } else {
                    int errno = errno();
                    if (errno != LinuxSocketCalls.EINTR && errno != LinuxSocketCalls.EAGAIN) {
                        throw failed("read", errno);
                    }
                }
            }
        }

        /** Writes exactly {@code length} octets from {@code buffer}; a non-blocking end polls for room when full. */
        void writeFully(Pointer buffer, int length) throws IOException {
            int done = 0;
            while (done < length) {
                Pointer from = done == 0 ? buffer : buffer.slice(done);
                calls++;
                long n = c.write(socket, from, length - done);
                if (n >= 0) {
                    done += (int) n;
                    continue;
                }
                int errno = errno();
                if (errno == LinuxSocketCalls.EAGAIN) {
                    awaitRoom();
                } else if (errno != LinuxSocketCalls.EINTR) {
                    throw failed("write", errno);
                }
            }
        }

        /**
         * Waits until the socket has input or another thread called {@link #wakeUp}.
         *
         * @return true for input, false for a wake-up alone (which it consumed)
         */
        boolean awaitInput() throws IOException {
            if (wait == Wait.BLOCKING_READ) {
                throw new IllegalStateException("a blocking end waits inside read");
            }
            if (wait == Wait.IO_URING) {
                throw new IllegalStateException("an io_uring end waits inside its receive");
            }
            boolean input = false;
            boolean woken = false;
            calls++;
            if (wait == Wait.POLL_THEN_READ) {
                if (retried("poll", c.poll(pollFds, 2, -1)) < 0) {
                    return false;  // interrupted by a signal: the caller looks again
                }
                input = pollFds.getShort(6) != 0;
                woken = pollFds.getShort(LinuxSocketCalls.POLLFD_SIZE + 6) != 0;
            } else {
                int ready = retried("epoll_wait", c.epoll_wait(epoll, events, 2, -1));
                for (int i = 0; i < ready; i++) {
                    boolean wakeUpEvent = events.getLong(i * Libc.EPOLL_EVENT_SIZE + Libc.EPOLL_DATA_OFFSET) == WAKE_UP_TAG;
                    woken |= wakeUpEvent;
                    input |= !wakeUpEvent;
                }
            }
            if (woken) {
                takeWakeUps();
            }
            return input;
        }

        /**
         * Reads the eventfd's count, which resets it (non-blocking).
         *
         * @return the wake-ups since the last read, 0 if none
         */
        long takeWakeUps() throws IOException {
            if (wait == Wait.BLOCKING_READ) {
                throw new IllegalStateException("a blocking end has no wake-ups");
            }
            if (wait == Wait.IO_URING) {
                throw new IllegalStateException("an io_uring end's receive takes its wake-ups");
            }
            calls++;
            if (c.read(wakeUp, drained, Long.BYTES) == Long.BYTES) {
                return drained.getLong(0);
            }
            int errno = errno();
            if (errno == LinuxSocketCalls.EAGAIN) {
                return 0;
            }
            throw failed("read(eventfd)", errno);
        }

        /**
         * An io_uring end's read and wait in one system call: queues a receive of up to {@code
         * length} octets into {@code buffer} (unless one is in flight already, into the same
         * buffer after a wake-up) and a read of the eventfd (unless one is in flight), submits
         * them, and sleeps until either completes.
         *
         * @return the octets received, or 0 if a wake-up or a signal came first (the receive
         *     stays in flight, and the next call, with the same buffer, waits for it), or if the
         *     kernel cancelled the receive because the thread that queued it ended (io_uring ties
         *     a request to its thread; the next call queues it again, nothing lost)
         * @throws EOFException if the other end closed, or this end was shut down meanwhile
         * @throws IOException if this end is closed
         */
        int receive(Pointer buffer, int length) throws IOException {
            if (wait != Wait.IO_URING) {
                throw new IllegalStateException("only an io_uring end receives through its ring");
            }
            synchronized (ringLock) {
                if (closed) {  // set before close takes the lock to unmap: seen here once it has
                    throw new IOException("the end is closed");
                }
                return receiveThroughRing(buffer, length);
            }
        }

        private int receiveThroughRing(Pointer buffer, int length) throws IOException {
            if (receiving == null) {
                ring.queueReceive(socket, buffer, length, SOCKET_TAG);
                receiving = buffer;
            } else if (receiving.address() != buffer.address()) {
                throw new IllegalStateException("a receive into another buffer is still in flight");
            }
            if (!wakeUpArmed) {
                ring.queueRead(wakeUp, drained, Long.BYTES, WAKE_UP_TAG);
                wakeUpArmed = true;
            }
            receiveDone = false;
            wokenUp = false;
            calls++;
            ring.submitAndWait(1);  // a signal may end it sooner: what completed is reaped all the same
            ring.reap(this::completed);
            if (!receiveDone) {
                return 0;
            }
            receiving = null;
            if (received > 0) {
                return received;
            }
            if (received == 0) {
                throw new EOFException("the other end closed");
            }
            if (-received == LinuxSocketCalls.EINTR || -received == LinuxSocketCalls.EAGAIN
                    || -received == LinuxSocketCalls.ECANCELED) {
                return 0;  // nothing taken: the next call queues the receive again
            }
            throw failed("io_uring receive", -received);
        }

        private void completed(long tag, int result) {
            if (tag == SOCKET_TAG) {
                receiveDone = true;
                received = result;
            } else {
                wakeUpArmed = false;  // the wake-up was taken, or the read cancelled: queue another
                wokenUp |= result != -LinuxSocketCalls.ECANCELED;
            }
        }

        /** Whether the last {@link #receive} ended, or also ended, on a wake-up. */
        boolean wokenUp() {
            return wokenUp;
        }

        /** The system calls this end made to read, write and wait, so far. */
        long calls() {
            return calls;
        }

        /** struct pollfd at {@code offset}: the fd and POLLIN (poll sets revents on every call). */
        private void pollFd(int offset, int fd) {
            pollFds.putInt(offset, fd);
            pollFds.putShort(offset + 4, (short) LinuxSocketCalls.POLLIN);
        }

        /** Ends a wait of this end's now or, if none is on, its next one (eventfd write). */
        void wakeUp() throws IOException {
            if (wait == Wait.BLOCKING_READ) {
                throw new IllegalStateException("nothing but data or a close ends a wait inside read");
            }
            if (c.write(wakeUp, one, Long.BYTES) != Long.BYTES) {
                throw failed("write(eventfd)", errno());
            }
        }

        private void awaitRoom() throws IOException {
            Pointer one = Memory.allocateDirect(Libc.RUNTIME, LinuxSocketCalls.POLLFD_SIZE);
            one.putInt(0, socket);
            one.putShort(4, (short) LinuxSocketCalls.POLLOUT);
            retried("poll", c.poll(one, 1, -1));
        }

        /** The call's result, or -1 if a signal interrupted it (EINTR); any other failure throws. */
        private int retried(String call, int result) throws IOException {
            if (result >= 0) {
                return result;
            }
            int errno = errno();
            if (errno == LinuxSocketCalls.EINTR) {
                return -1;
            }
            throw failed(call, errno);
        }

        /**
         * Ends the connection's reads and writes without closing a descriptor: a thread blocked
         * on the socket, or about to be, wakes and finds the end of the stream, where a close
         * alone would leave it blocked (Linux does not wake a wait on a closed descriptor).
         */
        void shutdown() {
            c.shutdown(socket, LinuxSocketCalls.SHUT_RDWR);  // fails only if the peer reset it: nothing to end then
        }

        /**
         * Shuts the socket down first ({@link #shutdown}), so that a thread still blocked on it
         * (its peer failed) wakes and ends. One that had not begun its wait yet may still find
         * the descriptors closed, or their numbers taken again: that harms only a run that
         * failed already. Once; later calls do nothing.
         */
        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            shutdown();
            if (ring != null) {
                synchronized (ringLock) {
                    ring.close();  // cancels the eventfd's read in flight
                }
            }
            closeQuietly(epoll);
            closeQuietly(wakeUp);
            check("close", c.close(socket));
        }
    }

    final End client;
    final End server;

    private NativeLink(End client, End server) {
        this.client = client;
        this.server = server;
    }

    /** A new loopback connection, both ends waiting the given way. */
    static NativeLink open(Wait wait) throws IOException {
        LinuxSocketCalls c = Libc.CALLS;
        int listener = socket();
        try {
            Pointer address = loopbackAnyPort();
            check("bind", c.bind(listener, address, LinuxSocketCalls.SOCKADDR_IN_SIZE));
            check("listen", c.listen(listener, 1));
            Pointer length = Memory.allocateDirect(Libc.RUNTIME, Integer.BYTES);
            length.putInt(0, LinuxSocketCalls.SOCKADDR_IN_SIZE);
            check("getsockname", c.getsockname(listener, address, length));
            int connecting = socket();
            try {
                check("connect", c.connect(connecting, address, LinuxSocketCalls.SOCKADDR_IN_SIZE));
            } catch (IOException e) {
                closeQuietly(connecting);
                throw e;
            }
            End client = new End(connecting, wait);
            try {
                return new NativeLink(client, new End(check("accept", c.accept(listener, null, null)), wait));
            } catch (IOException | RuntimeException e) {
                Closing.quietly(client, e);
                throw e;
            }
        } finally {
            closeQuietly(listener);
        }
    }

    private static int socket() throws IOException {
        return check("socket", Libc.CALLS.socket(LinuxSocketCalls.AF_INET,
                LinuxSocketCalls.SOCK_STREAM | LinuxSocketCalls.SOCK_CLOEXEC, 0));
    }

    /**
     * struct sockaddr_in for 127.0.0.1, port 0 (any: bind picks one, getsockname says which):
     * the family in the host's order, the address in the network's.
     */
    private static Pointer loopbackAnyPort() {
        Pointer address = Memory.allocateDirect(Libc.RUNTIME, LinuxSocketCalls.SOCKADDR_IN_SIZE);
        address.setMemory(0, LinuxSocketCalls.SOCKADDR_IN_SIZE, (byte) 0);
        address.putShort(0, (short) LinuxSocketCalls.AF_INET);
        address.put(4, new byte[] {127, 0, 0, 1}, 0, 4);
        return address;
    }

    private static int check(String call, int result) throws IOException {
        if (result < 0) {
            throw failed(call, errno());
        }
        return result;
    }

    private static int errno() {
        return LastError.getLastError(Libc.RUNTIME);
    }

    private static IOException failed(String call, int errno) {
        return new IOException(call + " failed: errno " + errno);
    }

    private static void closeQuietly(int fd) {
        if (fd >= 0) {
            Libc.CALLS.close(fd);
        }
    }

    /** Closes both ends, even if the first fails; a second failure is added to the first. */
    @Override
    public void close() throws IOException {
        Closing.all(List.of(client, server));
    }
}
