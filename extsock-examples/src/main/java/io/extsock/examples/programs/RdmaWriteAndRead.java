package io.extsock.examples.programs;

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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * One-sided RDMA: the server registers 4 KiB and hands the client its address (a
 * {@link RemoteBuffer}: STag, offset, length) over the stream; the client writes into that
 * memory and reads from it with no code of the server's running, and learns from completions
 * when its requests are done.
 */
public final class RdmaWriteAndRead {

    public static void main(String[] args) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 1, loopback)) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            FutureTask<String> serverEnd = new FutureTask<>(() -> {
                try (ExtendedSocket accepted = server.accept()) {
                    MemoryRegion memory = accepted.iwarp().register(ByteBuffer.allocateDirect(4096),
                            EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
                    memory.buffer().put(0, "server data".getBytes(StandardCharsets.US_ASCII));
                    ByteBuffer advert = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
                    memory.remote().writeTo(advert);
                    OutputStream out = accepted.getOutputStream();
                    out.write(advert.array());
                    out.flush();
                    accepted.getInputStream().read();      // the client is done: its Write is ahead of this byte
                    byte[] written = new byte[11];
                    memory.buffer().get(100, written);
                    return new String(written, StandardCharsets.US_ASCII);
                }
            });
            new Thread(serverEnd, "server").start();

            try (ExtendedSocket socket = new ExtendedSocket(loopback, server.getLocalPort())) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);
                InputStream in = socket.getInputStream();
                RemoteBuffer servers = RemoteBuffer.readFrom(ByteBuffer.wrap(in.readNBytes(RemoteBuffer.ENCODED_LENGTH)));
                System.out.println("the server's memory: " + servers);

                IwarpConnection verbs = socket.iwarp();
                MemoryRegion mine = verbs.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.LOCAL_WRITE));
                mine.buffer().put(0, "client data".getBytes(StandardCharsets.US_ASCII));
                verbs.post(new WriteRequest().tag(1).gather(mine.slice(0, 11)).target(servers.slice(100, 11)));
                verbs.post(new ReadRequest().tag(2).source(servers.slice(0, 11)).sink(mine.slice(2048, 11)));
                for (int i = 0; i < 2; i++) {
                    WorkCompletion done = verbs.completions().take(5, TimeUnit.SECONDS);
                    if (done == null) {
                        throw new IOException("no completion within 5 s");
                    }
                    System.out.println("request " + done.tag() + ", " + done.opcode() + ": " + done.status());
                }
                byte[] read = new byte[11];
                mine.buffer().get(2048, read);
                System.out.println("RDMA Read brought: " + new String(read, StandardCharsets.US_ASCII));
                socket.getOutputStream().write('.');
                System.out.println("RDMA Write left: " + serverEnd.get(5, TimeUnit.SECONDS));
            }
        }
    }
}
