package io.extsock.examples.file;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.examples.cli.Background;
import io.extsock.examples.cli.Sockets;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * {@code perf compare}'s file rows: {@code file get} of a temporary file of random bytes, client
 * and server in this process on loopback, by RDMA Write and RDMA Read (IWARP_MODE) and by plain
 * TCP's transferTo (sendfile into a java.nio SocketChannel). Each get is the command's whole
 * protocol, SHA-256 check included; what is timed is the transfer alone. The temporary
 * directory, the file and every copy are deleted on close.
 */
public final class FileCompare implements AutoCloseable {

    private final Path directory;
    private final Path source;
    private final Path received;
    private final ServerSocket plainServer;
    private final ServerSocket iwarpServer;

    public FileCompare(long size) throws IOException {
        directory = Files.createTempDirectory("extsock-perf-compare-");
        source = directory.resolve("source.bin");
        received = directory.resolve("received.bin");
        ServerSocket plain = null;
        ServerSocket iwarp = null;
        try {
            DiskSpace.require(received, 2 * size);  // the source and one copy at a time
            write(source, size);
            plain = ServerSocketChannel.open().socket();
            plain.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            serveFiles(plain, new FileSender(source, false));
            iwarp = new ExtendedServerSocket();
            iwarp.setOption(IwarpOptions.IWARP_MODE, true);
            iwarp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            serveFiles(iwarp, new FileSender(source, true));
        } catch (IOException | RuntimeException e) {
            Sockets.closeQuietly(plain);
            Sockets.closeQuietly(iwarp);
            delete(directory);
            throw e;
        }
        plainServer = plain;
        iwarpServer = iwarp;
    }

    /** One {@code file get} by the method: transferTo over plain TCP, the others in IWARP_MODE. */
    public FileReceiver.Outcome get(FileMethod method) throws IOException, InterruptedException {
        FileReceiver receiver = new FileReceiver(received, true,
                (name, size) -> new Progress(new PrintWriter(Writer.nullWriter()), name, size, Progress.Mode.NEVER));
        try (Socket socket = connect(method)) {
            return receiver.receive(socket, method);
        } finally {
            Files.deleteIfExists(received);
        }
    }

    private Socket connect(FileMethod method) throws IOException {
        if (method.plainTcpOnly()) {
            Socket socket = SocketChannel.open().socket();
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), plainServer.getLocalPort()));
            return socket;
        }
        ExtendedSocket socket = new ExtendedSocket();
        try {
            Sockets.noDelayForIwarp(socket);
            socket.setOption(IwarpOptions.IWARP_MODE, true);  // switches in connect
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), iwarpServer.getLocalPort()));
            return socket;
        } catch (IOException e) {
            Sockets.closeQuietly(socket);
            throw e;
        }
    }

    private static void serveFiles(ServerSocket server, FileSender sender) {
        Background.serveEachConnection(server, "perf-compare-file-server", socket -> {
            socket.setTcpNoDelay(true);
            sender.serve(socket);
        });
    }

    /** Random bytes (a fixed seed), 1 MiB at a time. */
    private static void write(Path file, long size) throws IOException {
        SplittableRandom random = new SplittableRandom(size);
        byte[] chunk = new byte[1 << 20];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long done = 0; done < size; ) {
                random.nextBytes(chunk);
                ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, size - done));
                while (buffer.hasRemaining()) {
                    done += channel.write(buffer);
                }
            }
        } catch (IOException e) {
            throw UserErrors.file(file.toString(), e);
        }
    }

    @Override
    public void close() throws IOException {
        Sockets.closeQuietly(plainServer);
        Sockets.closeQuietly(iwarpServer);
        delete(directory);
    }

    private static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
