package io.extsock.core.verbs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The bytes behind a file region ({@code IwarpConnection.registerFile}): a range of a file the
 * region opened itself, read at absolute positions into the staging blocks the transmit side
 * frames from. Nothing is mapped, so no page of the file is touched through this process's page
 * tables; on this project's VM the first touch of each page of a fresh mapping cost 0.44-0.97 s
 * per GiB, where the kernel's copy by {@code pread} does not pay it.
 *
 * <p>A {@link FileChannel} is closed by an interrupt of a thread inside one of its reads, and the
 * thread that frames may be an application's. So a read runs with the thread's interrupt status
 * cleared and restored afterwards, and an interrupt that lands inside it anyway (closing the
 * channel) reopens the file, once its identity is checked: the same file, not one renamed into
 * its place since.
 *
 * <p>Reads come from the transmit side, one thread at a time; {@link #close} from deregistration.
 */
final class FileRegionSource {

    private final Path path;
    private final long position;
    private final long length;
    /** The file's identity (device and inode where the platform has one), to reopen only it. */
    private final Object fileKey;
    private volatile FileChannel channel;
    private volatile boolean closed;
    /** How often an interrupt closed the channel and it was reopened: for tests. */
    private int reopens;

    private FileRegionSource(Path path, long position, long length, Object fileKey, FileChannel channel) {
        this.path = path;
        this.position = position;
        this.length = length;
        this.fileKey = fileKey;
        this.channel = channel;
    }

    /**
     * Opens {@code path} for reading and checks that {@code [position, position + length)} lies
     * within it now.
     *
     * @throws IllegalArgumentException for a negative position or length, or a range past 2^63
     * @throws EOFException if the range reaches beyond the file's end
     * @throws IOException if the file cannot be opened or is not a regular file
     */
    static FileRegionSource open(Path path, long position, long length) throws IOException {
        Objects.requireNonNull(path, "file");
        if (position < 0 || length < 0 || position > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("a file region needs a position and a length of at least 0, not "
                    + position + " and " + length);
        }
        // Checked before the open, which would block on a FIFO until a writer came.
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new IOException(path + " is not a regular file; only a regular file can be registered");
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            if (attributes.fileKey() != null) {  // not swapped between the check and the open
                requireSameFile(attributes.fileKey(), path, null);
            }
            long size = channel.size();
            if (position + length > size) {
                throw new EOFException("file region [" + position + ", " + (position + length) + ") of " + path
                        + " reaches beyond its end, at " + size + " bytes");
            }
            return new FileRegionSource(path, position, length, attributes.fileKey(), channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    long length() {
        return length;
    }

    Path path() {
        return path;
    }

    /**
     * Fills {@code block} from its position to its limit with the region's bytes from {@code
     * offset}, and flips it: position 0, limit what was filled.
     *
     * @throws SourceUnreadableException if the file ended early, was closed or replaced, or the
     *     read failed; the message names the file and the position
     */
    void readInto(ByteBuffer block, long offset) {
        int wanted = block.remaining();
        int start = block.position();
        boolean interrupted = Thread.interrupted();  // so that the read does not close the channel
        try {
            while (block.hasRemaining()) {
                // From the block, not a running count: a read that an interrupt ended may have
                // filled part of it before it threw.
                long at = position + offset + (block.position() - start);
                int n;
                try {
                    n = currentChannel().read(block, at);
                } catch (ClosedByInterruptException e) {
                    interrupted |= Thread.interrupted();  // landed inside the read: reopen and go on
                    reopen(e);
                    continue;
                }
                if (n < 0) {
                    throw new SourceUnreadableException("file region of " + path + ": the file ended at byte " + at
                            + ", inside the region [" + position + ", " + (position + length)
                            + ") (it shrank after registration)");
                }
            }
        } catch (IOException e) {
            throw new SourceUnreadableException("file region of " + path + ": reading " + wanted + " bytes at byte "
                    + (position + offset) + " failed: " + e, e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        block.flip();
    }

    /**
     * @throws IOException if {@code path} no longer names the file of this identity (renamed,
     *     replaced or deleted), or the platform gives files no identity
     */
    private static void requireSameFile(Object fileKey, Path path, ClosedByInterruptException cause)
            throws IOException {
        Object key;
        try {
            key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            key = null;
        }
        if (fileKey != null && fileKey.equals(key)) {
            return;
        }
        IOException replaced = new IOException(cause != null
                ? "an interrupt closed the file, and " + path + " is no longer the file registered (renamed,"
                        + " replaced or deleted since, or this platform cannot tell), so it is not reopened"
                : path + " changed while it was being opened");
        replaced.initCause(cause);
        throw replaced;
    }

    int reopens() {
        return reopens;
    }

    /** Closes the file; later reads fail. Idempotent. */
    void close() {
        closed = true;
        try {
            channel.close();
        } catch (IOException e) {
            // a read-only file: nothing was buffered that a failed close could lose
        }
    }

    private FileChannel currentChannel() throws IOException {
        if (closed) {
            throw new IOException("the region was deregistered and its file closed");
        }
        return channel;
    }

    private void reopen(ClosedByInterruptException cause) throws IOException {
        requireSameFile(fileKey, path, cause);
        FileChannel fresh = FileChannel.open(path, StandardOpenOption.READ);
        try {
            requireSameFile(fileKey, path, cause);  // the same before and after the open: the one opened
        } catch (IOException e) {
            fresh.close();
            throw e;
        }
        channel = fresh;
        reopens++;
        if (closed) {
            fresh.close();  // deregistered meanwhile
        }
    }
}
