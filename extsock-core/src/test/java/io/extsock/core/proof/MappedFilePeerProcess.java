package io.extsock.core.proof;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;

/**
 * The far end of {@link MappedFileTransferIT}, in its own JVM: maps a file of the given size,
 * registers the mapping (REMOTE_WRITE and REMOTE_READ, not pinned) on the one IWARP_MODE
 * connection it accepts, and talks over the socket's stream:
 * <ol>
 *   <li>sends the region's 16-byte descriptor;</li>
 *   <li>on {@code 'H'}, answers with the SHA-256 of its file's contents (read through the file,
 *       not the mapping);</li>
 *   <li>on {@code 'Q'} or the end of the stream, closes and exits 0.</li>
 * </ol>
 * Usage: {@code MappedFilePeerProcess <file> <size>}; prints {@code port <n>} once it listens.
 */
public final class MappedFilePeerProcess {

    private MappedFilePeerProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long size = Long.parseLong(args[1]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
             ExtendedServerSocket server = new ExtendedServerSocket()) {
            MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(new InetSocketAddress(Proof.LOOPBACK, 0));
            server.setSoTimeout(60_000);
            System.out.println("port " + server.getLocalPort());
            try (ExtendedSocket socket = server.accept()) {
                IwarpConnection verbs = socket.iwarp();
                MemoryRegion region = verbs.register(mapping,
                        EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
                OutputStream out = socket.getOutputStream();
                ByteBuffer descriptor = ByteBuffer.allocate(16);
                region.remote().writeTo(descriptor);
                out.write(descriptor.array());
                out.flush();
                DataInputStream in = new DataInputStream(socket.getInputStream());
                for (int command; (command = in.read()) != -1 && command != 'Q'; ) {
                    if (command != 'H') {
                        throw new IllegalStateException("unknown command " + command);
                    }
                    long start = System.nanoTime();
                    byte[] digest = Proof.sha256Of(channel, size);
                    System.out.printf("hashed %d bytes in %d ms%n", size, (System.nanoTime() - start) / 1_000_000);
                    out.write(digest);
                    out.flush();
                }
            }
        }
        System.out.println("done");
    }
}
