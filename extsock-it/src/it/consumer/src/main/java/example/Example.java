package example;

// The README's tour of the API, verbatim: ReadmeSnippetsTest checks that the body of main below is
// the README's block, line for line (the README leaves the imports out).
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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

public final class Example {

    public static void main(String[] args) throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0)) {
            server.setOption(IwarpOptions.IWARP_MODE, true);            // every accepted connection: iWARP
            FutureTask<String> serverEnd = new FutureTask<>(() -> {      // echoes, then offers 4 KiB
                try (ExtendedSocket accepted = server.accept()) {         // switches on its first use
                    accepted.getOutputStream().write(accepted.getInputStream().readNBytes(5));  // "hello"
                    MemoryRegion memory = accepted.iwarp().register(ByteBuffer.allocateDirect(4096),
                            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
                    memory.buffer().put(0, "server data".getBytes(StandardCharsets.US_ASCII));
                    ByteBuffer advert = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
                    memory.remote().writeTo(advert);                       // STag, offset, length: 16 bytes
                    accepted.getOutputStream().write(advert.array());
                    accepted.getInputStream().read();                      // the client is done
                    return StandardCharsets.US_ASCII.decode(memory.buffer().slice(100, 11)).toString();
                }
            });
            new Thread(serverEnd).start();

            try (ExtendedSocket socket = new ExtendedSocket("localhost", server.getLocalPort())) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);          // returns once both ends switched
                InputStream in = socket.getInputStream();
                socket.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
                System.out.println("echo: " + new String(in.readNBytes(5), StandardCharsets.US_ASCII));

                IwarpConnection verbs = socket.iwarp();                   // this connection's RDMA verbs
                RemoteBuffer servers = RemoteBuffer.readFrom(ByteBuffer.wrap(in.readNBytes(RemoteBuffer.ENCODED_LENGTH)));
                MemoryRegion mine = verbs.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.LOCAL_WRITE));
                mine.buffer().put(0, "client data".getBytes(StandardCharsets.US_ASCII));
                verbs.post(new WriteRequest().tag(1).gather(mine.slice(0, 11)).target(servers.slice(100, 11)));
                verbs.post(new ReadRequest().tag(2).source(servers.slice(0, 11)).sink(mine.slice(2048, 11)));
                for (int i = 0; i < 2; i++) {
                    WorkCompletion done = verbs.completions().take(5, TimeUnit.SECONDS);
                    if (done == null) {                                   // take returns null on its timeout
                        throw new TimeoutException("no completion within 5 s");
                    }
                    System.out.println("request " + done.tag() + ", " + done.opcode() + ": " + done.status());
                }
                System.out.println("RDMA Read brought: " + StandardCharsets.US_ASCII.decode(mine.buffer().slice(2048, 11)));
                socket.getOutputStream().write('.');                      // done: the Write is ahead of this
                System.out.println("RDMA Write left: " + serverEnd.get(5, TimeUnit.SECONDS));
            }
        }
    }
}
