package io.extsock.examples.file;

import io.extsock.ExtendedSocket;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.RemoteBuffer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

/**
 * The getting end of a file transfer (see {@link FileProtocol}): receives into a {@link
 * PartFile}, checks SHA-256 against the server's, and only then gives the file its name.
 */
public final class FileReceiver {

    /** What one transfer did. */
    public record Outcome(String name, Path saved, FileMethod method, long bytes, long transferNanos, long verifyNanos,
                   byte[] sha256) {
    }

    private final Path output;
    private final boolean replace;
    private final ProgressFactory progress;

    /** The end of stream where the server's offer belongs: a server that did not answer the request at all. */
    public static final String NO_OFFER = "the server closed the connection without answering the request";

    /** Makes the progress display for a file of a given name and size. */
    public interface ProgressFactory {
        Progress start(String name, long size);
    }

    /**
     * @param output where to save: null for the current directory under the server's name, a
     *               directory to save in it under that name, or a file path
     */
    public FileReceiver(Path output, boolean replace, ProgressFactory progress) {
        this.output = output;
        this.replace = replace;
        this.progress = progress;
    }

    public Outcome receive(Socket socket, FileMethod method) throws IOException, InterruptedException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(FileProtocol.MAGIC);
        out.writeByte(method.ordinal());
        out.flush();
        int status = in.read();
        if (status == FileProtocol.REFUSED) {
            throw new UserError("the server refused: " + in.readUTF());
        }
        if (status != FileProtocol.OK) {
            throw status < 0 ? new EOFException(NO_OFFER) : FileProtocol.unexpected(status, "the server's offer");
        }
        String name = in.readUTF();
        long size = in.readLong();
        Path target = target(name);
        DiskSpace.require(target, size);
        try (PartFile part = PartFile.create(target, replace);
             FileChannel channel = FileChannel.open(part.path(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            out.writeByte(FileProtocol.READY);
            out.flush();
            Progress bar = progress.start(name, size);
            long start = System.nanoTime();
            byte[] received = null;  // the stream method hashes as it receives; the others afterwards
            byte[] expected;
            long transferNanos;
            long verifyNanos;
            try {
                switch (method) {
                    case stream -> {
                        received = receiveStream(channel, in, size, bar, target);
                        expected = readDone(in);
                    }
                    case write -> expected = receiveWrites(verbs(socket), channel, size, in, out, bar);
                    case read -> expected = receiveByReads(verbs(socket), channel, size, in, out, bar);
                    case transferTo -> {
                        receiveFromChannel(socket, channel, size, bar, target);
                        expected = readDone(in);
                    }
                    default -> throw new IllegalArgumentException(method.toString());
                }
                long transferred = System.nanoTime();
                bar.verifying();
                if (received == null) {
                    received = Sha256.of(part.path());
                }
                verifyNanos = System.nanoTime() - transferred;
                transferNanos = transferred - start;
            } finally {
                bar.finish();
            }
            boolean verified = Arrays.equals(received, expected);
            out.writeByte(verified ? 1 : 0);
            out.flush();
            if (!verified) {
                throw new UserError("SHA-256 mismatch: received " + Sha256.hex(received) + ", the server has "
                        + Sha256.hex(expected) + " (nothing saved)");
            }
            channel.force(true);  // on disk before it has its name
            part.commit();
            return new Outcome(name, target, method, size, transferNanos, verifyNanos, received);
        }
    }

    private static IwarpConnection verbs(Socket socket) throws IOException {
        if (!(socket instanceof ExtendedSocket extended)) {
            throw new IllegalArgumentException("the one-sided methods need an ExtendedSocket in IWARP_MODE");
        }
        return extended.iwarp();
    }

    /** Copies the stream into the file, hashing as it goes (one pass); returns the hash. */
    private static byte[] receiveStream(FileChannel channel, DataInputStream in, long size, Progress bar, Path target)
            throws IOException {
        MessageDigest digest = Sha256.digest();
        byte[] chunk = new byte[1 << 20];
        long done = 0;
        while (done < size) {
            int n = in.read(chunk, 0, (int) Math.min(chunk.length, size - done));
            if (n < 0) {
                throw new EOFException();
            }
            digest.update(chunk, 0, n);
            ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, n);
            try {
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            } catch (IOException e) {
                throw UserErrors.file(target.toString(), e);
            }
            done += n;
            bar.update(done);
        }
        return digest.digest();
    }

    /**
     * Plain TCP's receiving end: reads the socket's channel (or a channel over its stream, for a
     * socket without one) into a 1 MiB direct buffer and writes that to the file, exactly {@code
     * size} bytes (what follows is the server's DONE). Not {@code FileChannel.transferFrom}: out
     * of a socket it copies through an 8 KiB buffer (JDK 17), a weaker baseline than this loop.
     * The file is hashed afterwards.
     */
    private static void receiveFromChannel(Socket socket, FileChannel channel, long size, Progress bar, Path target)
            throws IOException {
        ReadableByteChannel source = socket.getChannel() != null ? socket.getChannel()
                : Channels.newChannel(socket.getInputStream());
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        long done = 0;
        while (done < size) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), size - done));
            if (source.read(buffer) < 0) {
                throw new EOFException("the server closed after " + done + " of " + size + " bytes");
            }
            buffer.flip();
            try {
                while (buffer.hasRemaining()) {
                    done += channel.write(buffer);
                }
            } catch (IOException e) {
                throw UserErrors.file(target.toString(), e);
            }
            bar.update(done);
        }
    }

    /**
     * Lends the server a ring of buffers for its RDMA Writes and writes each chunk it reports to
     * the file (see {@link FileRing}). Returns the server's hash.
     */
    private static byte[] receiveWrites(IwarpConnection verbs, FileChannel channel, long size, DataInputStream in,
                                        DataOutputStream out, Progress bar) throws IOException {
        try (FileRing ring = FileRing.register(verbs, channel, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE))) {
            FileProtocol.writeRegions(out, ring.remoteSlots());
            return doneHash(ring.receiveWrites(in, out, size, bar::update), in);
        }  // deregistered: the server can write no more
    }

    /** RDMA-Reads the server's file region through a ring into ours, then says so; returns the server's hash. */
    private static byte[] receiveByReads(IwarpConnection verbs, FileChannel channel, long size, DataInputStream in,
                                         DataOutputStream out, Progress bar) throws IOException, InterruptedException {
        List<RemoteBuffer> sources = FileProtocol.readRegions(in);
        try (FileRing ring = FileRing.register(verbs, channel, EnumSet.of(Access.LOCAL_WRITE))) {
            ring.readFrom(verbs, sources, size, bar::update);
        }
        out.writeByte(FileProtocol.READ_DONE);
        out.flush();
        return readDone(in);
    }

    private static byte[] readDone(DataInputStream in) throws IOException {
        return doneHash(in.read(), in);
    }

    private static byte[] doneHash(int tag, DataInputStream in) throws IOException {
        if (tag != FileProtocol.DONE) {
            throw tag < 0 ? new EOFException() : FileProtocol.unexpected(tag, "the end of the transfer");
        }
        return FileProtocol.readHash(in);
    }

    /** Where the file goes: never outside the chosen directory, whatever name the server sends. */
    private Path target(String offered) {
        String name = Path.of(offered.isEmpty() ? "unnamed" : offered).getFileName().toString();
        if (name.equals(".") || name.equals("..") || offered.indexOf('/') >= 0 || offered.indexOf('\\') >= 0) {
            throw new UserError("the server offered an unsafe file name: " + offered);
        }
        if (output == null) {
            return Path.of(name);
        }
        return Files.isDirectory(output) ? output.resolve(name) : output;
    }
}
