package io.extsock.examples.file;

import io.extsock.ExtendedSocket;
import io.extsock.examples.cli.Background;
import io.extsock.examples.cli.Completions;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserErrors;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WriteRequest;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** The serving end of a file transfer: answers one request on one connection (see {@link FileProtocol}). */
public final class FileSender {

    /** What one transfer did, for the server's log line. */
    public record Outcome(FileMethod method, long bytes, long nanos, byte[] sha256, boolean clientVerified) {
    }

    /** The longest window of the file region the read method advertises. */
    public static final long READ_WINDOW = 1L << 30;
    /** The most one Write carries: a slot of the client's own ring (a larger slot is written in part). */
    public static final int CHUNK = FileRing.SLOT_SIZE;

    private final Path file;
    private final String name;
    private final boolean iwarp;

    public FileSender(Path file, boolean iwarp) {
        this.file = file;
        this.name = file.getFileName().toString();
        this.iwarp = iwarp;
    }

    /** Serves one request; returns null if the client went away before it was ready (no space, say). */
    public Outcome serve(Socket socket) throws IOException, InterruptedException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        int magic = in.readInt();
        if (magic == FileProtocol.MPA_REQUEST) {
            throw new SocketException("the client asked for IWARP_MODE (its first bytes are an MPA request), and this"
                    + " server runs plain TCP: serve without --no-iwarp, or get with --no-iwarp");
        }
        if (magic != FileProtocol.MAGIC) {
            throw new SocketException("the client does not speak extsock's file protocol");
        }
        int methodIndex = in.readUnsignedByte();
        if (methodIndex >= FileMethod.values().length) {
            return refuse(out, "unknown method " + methodIndex);
        }
        FileMethod method = FileMethod.values()[methodIndex];
        if (method.oneSided() && !iwarp) {
            return refuse(out, "the server is not in IWARP_MODE: --method " + method + " needs it (use --method stream)");
        }
        if (method.plainTcpOnly() && iwarp) {
            return refuse(out, "the server is in IWARP_MODE: --method " + method + " is plain TCP's (start the server "
                    + "with --no-iwarp, or use --method write or read)");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            out.writeByte(FileProtocol.OK);
            out.writeUTF(name);
            out.writeLong(size);
            out.flush();
            int ready = in.read();
            if (ready != FileProtocol.READY) {
                return null;  // the client said why, on its side
            }
            long start = System.nanoTime();
            Sent sent = new Sent();
            byte[] hash;
            try {
                hash = switch (method) {
                    case stream -> sendStream(channel, out, sent);
                    case write -> sendByWrites(((ExtendedSocket) socket).iwarp(), size, in, out, sent);
                    case read -> exposeForReads(((ExtendedSocket) socket).iwarp(), size, in, out);
                    case transferTo -> sendByTransferTo(socket, channel, size, out, sent);
                };
            } catch (FileProtocol.Violation e) {
                throw e;
            } catch (SocketException | EOFException e) {
                throw wentAway(method, sent, size, e);
            }
            long nanos = System.nanoTime() - start;
            int verdict = in.read();
            Sockets.awaitClose(socket);
            return new Outcome(method, size, nanos, hash, verdict == 1);
        }
    }

    /** How far a transfer got, for the message when the client goes away in the middle of it. */
    private static final class Sent {
        long bytes;
    }

    /**
     * The client ended the connection during the transfer (stopped, killed, or out of space): said
     * as that, with how far it got, rather than as a protocol error.
     */
    private static SocketException wentAway(FileMethod method, Sent sent, long size, IOException e) {
        String howFar = method == FileMethod.read ? "during its RDMA Reads"
                : "after " + Units.bytes(sent.bytes) + " of " + Units.bytes(size) + " (" + sent.bytes + " octets)";
        SocketException away = new SocketException("the client went away " + howFar + ": " + UserErrors.message(e));
        away.initCause(e);
        return away;
    }

    private static Outcome refuse(DataOutputStream out, String reason) throws IOException {
        out.writeByte(FileProtocol.REFUSED);
        out.writeUTF(reason);
        out.flush();
        return null;
    }

    /** Copies through user space: the only method plain TCP has. Hashes what it sends, in one pass. */
    private static byte[] sendStream(FileChannel channel, DataOutputStream out, Sent sent) throws IOException {
        MessageDigest digest = Sha256.digest();
        byte[] chunk = new byte[1 << 20];
        ByteBuffer buffer = ByteBuffer.wrap(chunk);
        for (int n; (n = channel.read(buffer.clear())) > 0; ) {
            digest.update(chunk, 0, n);
            out.write(chunk, 0, n);
            sent.bytes += n;
        }
        byte[] hash = digest.digest();
        out.writeByte(FileProtocol.DONE);
        out.write(hash);
        out.flush();
        return hash;
    }

    /**
     * {@code FileChannel.transferTo} into the socket's channel: sendfile(2) on Linux, the kernel
     * copying from the page cache to the socket. A socket without a channel (not made by a
     * SocketChannel) gets a channel over its stream, which copies through user space. The hash,
     * as for the one-sided methods, is computed beside the transfer.
     */
    private byte[] sendByTransferTo(Socket socket, FileChannel channel, long size, DataOutputStream out, Sent sent)
            throws IOException, InterruptedException {
        Future<byte[]> hash = hashMeanwhile();
        WritableByteChannel target = socket.getChannel() != null ? socket.getChannel()
                : Channels.newChannel(socket.getOutputStream());
        while (sent.bytes < size) {
            sent.bytes += channel.transferTo(sent.bytes, size - sent.bytes, target);
        }
        return done(out, hash);
    }

    /**
     * RDMA-Writes the file through the client's ring (see {@link FileRing}), gathering each chunk
     * from a file region of the whole file (read as the Write is framed, not mapped: see {@link
     * IwarpConnection#registerFile}): each chunk written into the next slot of the client's, then
     * CHUNK and its length behind it (a stream message after a Write arrives after its data). A
     * client slot is written again only after the client's FREE for it.
     */
    private byte[] sendByWrites(IwarpConnection verbs, long size, DataInputStream in, DataOutputStream out, Sent sent)
            throws IOException, InterruptedException {
        List<RemoteBuffer> slots = FileProtocol.readRegions(in);
        for (RemoteBuffer slot : slots) {
            if (slot.length() <= 0 || slot.length() > Integer.MAX_VALUE) {
                throw new FileProtocol.Violation("the client offered a slot of " + slot.length() + " bytes to write into");
            }
        }
        if (slots.isEmpty() && size > 0) {
            throw new FileProtocol.Violation("the client offered no slots to write into");
        }
        Future<byte[]> hash = hashMeanwhile();
        try (MemoryRegion source = verbs.registerFile(file, 0, size, EnumSet.noneOf(Access.class))) {
            WriteRequest request = new WriteRequest();  // reusable: posting copies what it needs
            int free = slots.size();
            int inFlight = 0;
            for (long chunk = 0, position = 0; position < size; chunk++) {
                if (free == 0) {
                    awaitFree(in);
                    free++;
                }
                RemoteBuffer slot = slots.get((int) (chunk % slots.size()));
                int length = (int) Math.min(Math.min(slot.length(), CHUNK), size - position);
                verbs.post(request.gather(source.slice(position, length)).target(slot.slice(0, length)));
                free--;
                out.writeByte(FileProtocol.CHUNK);
                out.writeInt(length);
                out.flush();
                if (++inFlight == FileRing.SLOTS) {  // the completion queue holds a ring's worth at most
                    Completions.next(verbs.completions());
                    inFlight--;
                }
                position += length;
                sent.bytes = position;
            }
            for (; inFlight > 0; inFlight--) {  // every Write done before the file is deregistered
                Completions.next(verbs.completions());
            }
            for (; free < slots.size(); free++) {  // every chunk in the client's file; what follows is its verdict
                awaitFree(in);
            }
        }
        return done(out, hash);
    }

    private static void awaitFree(DataInputStream in) throws IOException {
        int tag = in.read();
        if (tag != FileProtocol.FREE) {
            throw FileProtocol.unexpected(tag, "a slot given back");
        }
    }

    /**
     * Registers the file for the client's RDMA Reads, as one file region (read as the responses
     * are framed, not mapped: see {@link IwarpConnection#registerFile}), and waits until the
     * client says it is done.
     */
    private byte[] exposeForReads(IwarpConnection verbs, long size, DataInputStream in, DataOutputStream out)
            throws IOException, InterruptedException {
        Future<byte[]> hash = hashMeanwhile();
        try (MemoryRegion source = verbs.registerFile(file, 0, size, EnumSet.of(Access.REMOTE_READ))) {
            FileProtocol.writeRegions(out, windows(source, size));
            int tag = in.read();
            if (tag != FileProtocol.READ_DONE) {
                throw FileProtocol.unexpected(tag, "the end of the client's reads");
            }
        }  // deregistered: the client can read no more
        return done(out, hash);
    }

    /**
     * The region as windows of at most 1 GiB, in file order: a window's length is 32 bits on the
     * wire ({@link RemoteBuffer#writeTo}), and the region may be longer.
     */
    private static List<RemoteBuffer> windows(MemoryRegion region, long size) {
        List<RemoteBuffer> windows = new java.util.ArrayList<>();
        for (long offset = 0; offset < size; offset += READ_WINDOW) {
            windows.add(region.remote(offset, Math.min(READ_WINDOW, size - offset)));
        }
        return windows;
    }

    /** The one-sided methods never touch the data here, so the hash is computed beside the transfer. */
    private Future<byte[]> hashMeanwhile() {
        return Background.start("sha-256 " + name, () -> Sha256.of(file));
    }

    private static byte[] done(DataOutputStream out, Future<byte[]> hashing) throws IOException, InterruptedException {
        byte[] hash;
        try {
            hash = hashing.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("hashing failed", e.getCause());
        }
        out.writeByte(FileProtocol.DONE);
        out.write(hash);
        out.flush();
        return hash;
    }
}
