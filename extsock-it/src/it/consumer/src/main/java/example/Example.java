package example;

// The README's example ("Use it in your project"), verbatim: ReadmeSnippetsTest checks that the
// body of main below is the README's block, line for line.
import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

public final class Example {

    public static void main(String[] args) throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0)) {
            server.setOption(IwarpOptions.IWARP_MODE, true);  // every accepted connection: iWARP
            // The server's end, on its own thread (as another program would be): it echoes, then
            // offers 4 KiB of registered memory that the client may read and write.
            FutureTask<String> serverEnd = new FutureTask<>(() -> {
                try (ExtendedSocket accepted = server.accept()) {   // switches on its first use
                    InputStream in = accepted.getInputStream();
                    OutputStream out = accepted.getOutputStream();
                    out.write(in.readNBytes(5));                    // echo "hello"
                    MemoryRegion memory = accepted.iwarp().register(ByteBuffer.allocateDirect(4096),
                            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
                    memory.buffer().put(0, "server data".getBytes(StandardCharsets.US_ASCII));
                    ByteBuffer advert = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
                    memory.remote().writeTo(advert);                // STag, offset, length: 16 bytes
                    out.write(advert.array());
                    in.read();                                      // the client is done
                    byte[] written = new byte[11];
                    memory.buffer().get(100, written);
                    return new String(written, StandardCharsets.US_ASCII);
                }
            });
            new Thread(serverEnd).start();

            try (ExtendedSocket socket = new ExtendedSocket("localhost", server.getLocalPort())) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);   // waits for the server's end
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                out.write("hello".getBytes(StandardCharsets.US_ASCII));
                System.out.println("echo: " + new String(in.readNBytes(5), StandardCharsets.US_ASCII));

                IwarpConnection verbs = socket.iwarp();
                RemoteBuffer servers = RemoteBuffer.readFrom(ByteBuffer.wrap(in.readNBytes(RemoteBuffer.ENCODED_LENGTH)));
                MemoryRegion mine = verbs.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.LOCAL_WRITE));
                mine.buffer().put(0, "client data".getBytes(StandardCharsets.US_ASCII));
                verbs.post(new WriteRequest().tag(1).gather(mine.slice(0, 11)).target(servers.slice(100, 11)));
                verbs.post(new ReadRequest().tag(2).source(servers.slice(0, 11)).sink(mine.slice(2048, 11)));
                for (int i = 0; i < 2; i++) {
                    WorkCompletion done = verbs.completions().take(5, TimeUnit.SECONDS);
                    System.out.println("request " + done.tag() + ", " + done.opcode() + ": " + done.status());
                }
                byte[] read = new byte[11];
                mine.buffer().get(2048, read);
                System.out.println("RDMA Read brought: " + new String(read, StandardCharsets.US_ASCII));
                out.write('.');                                     // done: the Write is ahead of this
                System.out.println("RDMA Write left: " + serverEnd.get(5, TimeUnit.SECONDS));
            }
        }
    }
}
