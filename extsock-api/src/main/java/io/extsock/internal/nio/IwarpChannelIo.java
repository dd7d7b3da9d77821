package io.extsock.internal.nio;

import io.extsock.spi.SocketTransport;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A channel's reads and writes once it runs in IWARP_MODE: over the iWARP stream, in the
 * channel's blocking or non-blocking mode, with {@link ByteBuffer}s. One read and one write at a
 * time, as a channel allows; a buffer without an array goes through a scratch array of the
 * channel's.
 *
 * <p>A blocking read looks for an interrupt every {@link #INTERRUPT_CHECK_MILLIS} while nothing
 * arrives: the engine's own waits do not end at an interrupt, and a channel's read must.
 */
final class IwarpChannelIo {

    /** How often a blocking read with nothing arriving looks for an interrupt. */
    static final int INTERRUPT_CHECK_MILLIS = 50;
    private static final int SCRATCH = 64 * 1024;

    private final SocketTransport stream;
    /** Closes the channel: after an interrupt, as a channel's interrupted read does. */
    private final Closer closer;
    private final ReentrantLock reading = new ReentrantLock();
    private final ReentrantLock writing = new ReentrantLock();
    private byte[] readScratch;
    private byte[] writeScratch;

    /** How the channel closes. */
    interface Closer {
        void close() throws IOException;
    }

    IwarpChannelIo(SocketTransport stream, Closer closer) {
        this.stream = stream;
        this.closer = closer;
    }

    SocketTransport stream() {
        return stream;
    }

    /** @return bytes read, 0 if none is there (non-blocking), -1 at end of stream */
    int read(ByteBuffer dst, boolean blocking) throws IOException {
        reading.lock();
        try {
            return readLocked(dst, blocking);
        } finally {
            reading.unlock();
        }
    }

    long read(ByteBuffer[] dsts, int offset, int length, boolean blocking) throws IOException {
        reading.lock();
        try {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                if (!dsts[i].hasRemaining()) {
                    continue;
                }
                // Only the first read may wait: then what is there, without waiting.
                int n = readLocked(dsts[i], blocking && total == 0);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                total += n;
                if (dsts[i].hasRemaining()) {
                    break;  // nothing more there now
                }
            }
            return total;
        } finally {
            reading.unlock();
        }
    }

    private int readLocked(ByteBuffer dst, boolean blocking) throws IOException {
        int len = dst.remaining();
        if (len == 0) {
            return 0;
        }
        byte[] array;
        int off;
        if (dst.hasArray()) {
            array = dst.array();
            off = dst.arrayOffset() + dst.position();
        } else {
            if (readScratch == null) {
                readScratch = new byte[SCRATCH];
            }
            array = readScratch;
            off = 0;
            len = Math.min(len, SCRATCH);
        }
        int n = blocking ? readWaiting(array, off, len) : stream.readNow(array, off, len);
        if (n > 0) {
            if (dst.hasArray()) {
                dst.position(dst.position() + n);
            } else {
                dst.put(array, 0, n);
            }
        }
        return n;
    }

    private int readWaiting(byte[] array, int off, int len) throws IOException {
        while (true) {
            try {
                return stream.read(array, off, len, INTERRUPT_CHECK_MILLIS);
            } catch (SocketTimeoutException nothingYet) {
                if (Thread.currentThread().isInterrupted()) {
                    closer.close();
                    throw new ClosedByInterruptException();
                }
            }
        }
    }

    /** @return bytes written: all of them when blocking; what the peer takes now otherwise */
    int write(ByteBuffer src, boolean blocking) throws IOException {
        writing.lock();
        try {
            return writeLocked(src, blocking);
        } finally {
            writing.unlock();
        }
    }

    long write(ByteBuffer[] srcs, int offset, int length, boolean blocking) throws IOException {
        writing.lock();
        try {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += writeLocked(srcs[i], blocking);
                if (srcs[i].hasRemaining()) {
                    break;  // the peer takes no more now
                }
            }
            return total;
        } finally {
            writing.unlock();
        }
    }

    private int writeLocked(ByteBuffer src, boolean blocking) throws IOException {
        int total = 0;
        while (src.hasRemaining()) {
            int len = src.remaining();
            byte[] array;
            int off;
            if (src.hasArray()) {
                array = src.array();
                off = src.arrayOffset() + src.position();
            } else {
                if (writeScratch == null) {
                    writeScratch = new byte[SCRATCH];
                }
                array = writeScratch;
                off = 0;
                len = Math.min(len, SCRATCH);
                src.get(array, 0, len);
                src.position(src.position() - len);  // taken back below by what was written
            }
            int n;
            if (blocking) {
                stream.write(array, off, len);
                n = len;
            } else {
                n = stream.writeNow(array, off, len);
            }
            src.position(src.position() + n);
            total += n;
            if (n < len) {
                break;  // non-blocking: the peer takes no more now
            }
        }
        return total;
    }
}
