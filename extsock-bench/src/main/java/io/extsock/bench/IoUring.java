package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * A small io_uring instance, used by one thread at a time: requests are queued in the shared
 * submission ring, and one {@code io_uring_enter} both hands them to the kernel and waits for
 * completions, which is what lets a wait and a read be one system call. Only what
 * {@link NativeLink}'s io_uring end needs: receive on a socket, read a descriptor. Linux 5.6 or
 * later. The layouts below are those of Linux's {@code <linux/io_uring.h>}.
 */
final class IoUring implements Closeable {

    /** What a completion says, handed to {@link #reap}'s sink. */
    interface Completions {
        /**
         * @param tag the request's tag as queued
         * @param result its result: octets for a read or receive, or -errno
         */
        void completed(long tag, int result);
    }

    private static final byte IORING_OP_READ = 22;
    private static final byte IORING_OP_RECV = 27;
    private static final int IORING_ENTER_GETEVENTS = 1;
    private static final long IORING_OFF_SQ_RING = 0;
    private static final long IORING_OFF_CQ_RING = 0x8000000L;
    private static final long IORING_OFF_SQES = 0x10000000L;
    private static final int PARAMS_SIZE = 120;
    private static final int SQE_SIZE = 64;
    private static final int CQE_SIZE = 16;

    /** The bound calls, loaded at first use. */
    private static final class Calls {
        static final IoUringCalls C = LibraryLoader.create(IoUringCalls.class).failImmediately()
                .load(Platform.getNativePlatform().getStandardCLibraryName());
        static final Runtime RUNTIME = Runtime.getRuntime(C);
    }

    private final IoUringCalls c = Calls.C;
    private final int fd;
    private final Pointer submissionRing;
    private final long submissionRingSize;
    private final Pointer completionRing;
    private final long completionRingSize;
    private final Pointer entries;
    private final long entriesSize;
    /** Where in the submission ring the kernel's head, this side's tail and the index array are. */
    private final int sqHeadAt;
    private final int sqTailAt;
    private final int sqArrayAt;
    /** Where in the completion ring this side's head, the kernel's tail and the entries are. */
    private final int cqHeadAt;
    private final int cqTailAt;
    private final int cqesAt;
    /** Each ring's size less one: its sizes are powers of two. */
    private final int sqMask;
    private final int cqMask;
    private final int sqEntries;
    /** The submission tail as this side last published it; only this side moves it. */
    private int queuedTail;
    /** Requests queued since the last enter. */
    private int unsubmitted;
    private boolean closed;

    private IoUring(int fd, Pointer params) throws IOException {
        this.fd = fd;
        int sqCount = params.getInt(0);
        int cqCount = params.getInt(4);
        int sq = 40;  // struct io_sqring_offsets within the params: offsets into the submission ring
        int cq = 80;  // struct io_cqring_offsets: offsets into the completion ring
        sqHeadAt = params.getInt(sq);
        sqTailAt = params.getInt(sq + 4);
        sqArrayAt = params.getInt(sq + 24);
        cqHeadAt = params.getInt(cq);
        cqTailAt = params.getInt(cq + 4);
        cqesAt = params.getInt(cq + 20);
        sqEntries = sqCount;
        sqMask = sqCount - 1;
        cqMask = cqCount - 1;
        submissionRingSize = sqArrayAt + (long) sqCount * Integer.BYTES;
        completionRingSize = cqesAt + (long) cqCount * CQE_SIZE;
        entriesSize = (long) sqCount * SQE_SIZE;
        Pointer sqMap = null;
        Pointer cqMap = null;
        try {
            sqMap = map(submissionRingSize, IORING_OFF_SQ_RING);
            cqMap = map(completionRingSize, IORING_OFF_CQ_RING);
            entries = map(entriesSize, IORING_OFF_SQES);
        } catch (IOException e) {
            unmap(cqMap, completionRingSize);
            unmap(sqMap, submissionRingSize);
            c.close(fd);
            throw e;
        }
        submissionRing = sqMap;
        completionRing = cqMap;
        queuedTail = submissionRing.getInt(sqTailAt);
    }

    /**
     * A ring of at least {@code size} entries.
     *
     * @throws IOException naming errno if the kernel refuses (ENOSYS without io_uring, EPERM where
     *     {@code kernel.io_uring_disabled} forbids it)
     */
    static IoUring open(int size) throws IOException {
        if (Platform.getNativePlatform().getOS() != Platform.OS.LINUX) {
            throw new UnsupportedOperationException("io_uring is Linux's; this is " + Platform.getNativePlatform().getOS());
        }
        Pointer params = Memory.allocateDirect(Calls.RUNTIME, PARAMS_SIZE);
        params.setMemory(0, PARAMS_SIZE, (byte) 0);
        int fd = Calls.C.syscall(IoUringCalls.SYS_IO_URING_SETUP, size, params);
        if (fd < 0) {
            throw failed("io_uring_setup", errno());
        }
        return new IoUring(fd, params);
    }

    private Pointer map(long length, long offset) throws IOException {
        Pointer mapped = c.mmap(null, length, IoUringCalls.PROT_READ | IoUringCalls.PROT_WRITE,
                IoUringCalls.MAP_SHARED | IoUringCalls.MAP_POPULATE, fd, offset);
        if (mapped == null || mapped.address() == -1L) {
            throw failed("mmap(io_uring)", errno());
        }
        return mapped;
    }

    private void unmap(Pointer mapped, long length) {
        if (mapped != null) {
            c.munmap(mapped, length);
        }
    }

    /** Queues a receive of up to {@code length} octets from a socket into {@code buffer}. */
    void queueReceive(int socket, Pointer buffer, int length, long tag) {
        queue(IORING_OP_RECV, socket, buffer, length, tag);
    }

    /** Queues a read of up to {@code length} octets from a descriptor into {@code buffer}. */
    void queueRead(int descriptor, Pointer buffer, int length, long tag) {
        queue(IORING_OP_READ, descriptor, buffer, length, tag);
    }

    private void queue(byte opcode, int descriptor, Pointer buffer, int length, long tag) {
        int kernelHead = submissionRing.getInt(sqHeadAt);
        VarHandle.acquireFence();
        if (queuedTail - kernelHead >= sqEntries) {
            throw new IllegalStateException("the submission ring is full (" + sqEntries + " requests)");
        }
        int index = queuedTail & sqMask;
        long at = (long) index * SQE_SIZE;
        entries.setMemory(at, SQE_SIZE, (byte) 0);
        entries.putByte(at, opcode);
        entries.putInt(at + 4, descriptor);
        entries.putLong(at + 16, buffer.address());
        entries.putInt(at + 24, length);
        entries.putLong(at + 32, tag);
        submissionRing.putInt(sqArrayAt + (long) index * Integer.BYTES, index);
        queuedTail++;
        VarHandle.releaseFence();  // the entry before the tail that publishes it
        submissionRing.putInt(sqTailAt, queuedTail);
        unsubmitted++;
    }

    /**
     * Hands the queued requests to the kernel and waits until at least {@code completions} are
     * in the completion ring: one system call. A signal may end the wait sooner; the caller
     * reaps what there is and looks again.
     */
    void submitAndWait(int completions) throws IOException {
        int taken = c.syscall(IoUringCalls.SYS_IO_URING_ENTER, fd, unsubmitted, completions, IORING_ENTER_GETEVENTS,
                null, 0);
        if (taken < 0) {
            int errno = errno();
            if (errno == LinuxSocketCalls.EINTR) {
                return;  // nothing was submitted: the requests stay queued for the next call
            }
            throw failed("io_uring_enter", errno);
        }
        if (taken != unsubmitted) {
            throw new IOException("io_uring_enter took " + taken + " of " + unsubmitted + " requests");
        }
        unsubmitted = 0;
    }

    /**
     * Hands every completion in the ring to {@code sink}, oldest first.
     *
     * @return how many it handed
     */
    int reap(Completions sink) {
        int head = completionRing.getInt(cqHeadAt);
        int tail = completionRing.getInt(cqTailAt);
        VarHandle.acquireFence();  // the entries the tail published, not older contents
        int reaped = 0;
        for (; head != tail; head++, reaped++) {
            long at = cqesAt + (long) (head & cqMask) * CQE_SIZE;
            sink.completed(completionRing.getLong(at), completionRing.getInt(at + 8));
        }
        VarHandle.releaseFence();  // done reading the entries before the kernel may reuse them
        completionRing.putInt(cqHeadAt, head);
        return reaped;
    }

    /** Unmaps the rings and closes the instance, which cancels what is still in flight. Once. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        unmap(entries, entriesSize);
        unmap(completionRing, completionRingSize);
        unmap(submissionRing, submissionRingSize);
        if (c.close(fd) < 0) {
            throw failed("close(io_uring)", errno());
        }
    }

    private static int errno() {
        return LastError.getLastError(Calls.RUNTIME);
    }

    private static IOException failed(String call, int errno) {
        return new IOException(call + " failed: errno " + errno);
    }
}
