package io.extsock.rdma.siw;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The verbs between extsock's two providers, every byte checked. The client Sends a message,
 * which the server echoes with a Send; the server then Sends the client its target region
 * ({@link RemoteBuffer}); the client RDMA-Writes the message into its first half and RDMA-Reads
 * the server's pattern from its second half, checks what it read, and Sends "done"; the server
 * then checks that the Write placed the message. {@code server ADDRESS PORT PROVIDER} serves one
 * connection; {@code client HOST PORT PROVIDER MESSAGE} runs the client; {@code outlive ADDRESS
 * PORT PROVIDER} accepts one connection and prints the first completion it gets once its peer is
 * gone (its two Receives, flushed). PROVIDER is auto, software or device. The socket's streams are off: the Sends are the application's own.
 */
public final class VerbsEcho {

    private static final int SIZE = 4096;
    private static final int HALF = SIZE / 2;
    private static final long WAIT_SECONDS = 300;  // a JVM under QEMU's emulation is slow to start
    /** What the server's target holds in its second half, for the client's RDMA Read. */
    static final byte[] SERVER_PATTERN = "server data for an RDMA Read; ".repeat(30).substring(0, 512)
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "done".getBytes(StandardCharsets.US_ASCII);

    // Work request tags, each side's own.
    private static final long FIRST_RECEIVE = 1;
    private static final long SECOND_RECEIVE = 2;
    private static final long MESSAGE_SEND = 3;
    private static final long ADVERT_SEND = 4;
    private static final long WRITE = 5;
    private static final long READ = 6;
    private static final long DONE_SEND = 7;

    private VerbsEcho() {
    }

    public static void main(String[] args) throws Exception {
        IwarpOptions.Provider provider = IwarpOptions.Provider.parse(args[3]);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
        if (args[0].equals("outlive")) {
            Buffers buffers = new Buffers();
            try (ExtendedServerSocket server = listen(address, provider, buffers);
                 ExtendedSocket socket = (ExtendedSocket) server.accept()) {
                WorkCompletion first = socket.iwarp().completions().take(WAIT_SECONDS, TimeUnit.SECONDS);
                System.out.println("the first completion after the peer's end: " + (first == null ? "none"
                        : first.opcode() + " " + first.status() + " " + first.cause()));
            }
        } else if (args[0].equals("server")) {
            Buffers buffers = new Buffers();
            try (ExtendedServerSocket server = listen(address, provider, buffers)) {
                System.out.println("server listening on " + address);
                System.out.println("server echoed " + serveOne(server, buffers));
            }
        } else {
            client(address, provider, args[4].getBytes(StandardCharsets.UTF_8));
        }
    }

    /** One side's memory, with two Receives posted before the peer can send. */
    static final class Buffers {
        MemoryRegion inbound;
        MemoryRegion outbound;
        MemoryRegion target;

        void prepare(IwarpConnection connection) throws IOException {
            inbound = connection.register(ByteBuffer.allocateDirect(SIZE), EnumSet.of(Access.LOCAL_WRITE));
            outbound = connection.register(ByteBuffer.allocateDirect(SIZE), EnumSet.noneOf(Access.class));
            target = connection.register(ByteBuffer.allocateDirect(SIZE),
                    EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
            connection.post(new ReceiveRequest().tag(FIRST_RECEIVE).scatter(inbound.slice(0, HALF)));
            connection.post(new ReceiveRequest().tag(SECOND_RECEIVE).scatter(inbound.slice(HALF, HALF)));
        }
    }

    /** A bound server socket whose accepted connections run on {@code provider}, with streams off. */
    static ExtendedServerSocket listen(InetSocketAddress address, IwarpOptions.Provider provider, Buffers buffers)
            throws IOException {
        ExtendedServerSocket server = new ExtendedServerSocket();
        try {
            server.setOption(IwarpOptions.PROVIDER, provider);
            server.setOption(IwarpOptions.STREAMS, false);
            server.setOption(IwarpOptions.SETUP, buffers::prepare);
            server.setOption(IwarpOptions.MPA_TIMEOUT, (int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.bind(address);
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Serves one connection: echoes its message, offers its target, and checks the client's Write.
     *
     * @return "N bytes: MESSAGE, written back, on PROVIDER DEVICE"
     */
    static String serveOne(ExtendedServerSocket server, Buffers buffers) throws Exception {
        try (ExtendedSocket socket = (ExtendedSocket) server.accept()) {
            IwarpConnection connection = socket.iwarp();
            System.out.println("server accepted " + connection + " " + connection.settings());
            buffers.target.buffer().put(HALF, SERVER_PATTERN);
            int length = (int) completions(connection, FIRST_RECEIVE).get(FIRST_RECEIVE).byteLength();
            byte[] message = new byte[length];
            buffers.inbound.buffer().get(0, message);
            buffers.outbound.buffer().put(0, message);
            connection.post(new SendRequest().tag(MESSAGE_SEND).gather(buffers.outbound.slice(0, length)));
            ByteBuffer advert = ByteBuffer.allocate(RemoteBuffer.ENCODED_LENGTH);
            buffers.target.remote().writeTo(advert);
            buffers.outbound.buffer().put(HALF, advert.array());
            connection.post(new SendRequest().tag(ADVERT_SEND)
                    .gather(buffers.outbound.slice(HALF, RemoteBuffer.ENCODED_LENGTH)));
            // The client's "done" comes after its Write on the same connection: the Write is placed.
            completions(connection, MESSAGE_SEND, ADVERT_SEND, SECOND_RECEIVE);
            byte[] written = new byte[length];
            buffers.target.buffer().get(0, written);
            if (!Arrays.equals(message, written)) {
                throw new IllegalStateException("the client's RDMA Write placed other bytes: "
                        + new String(written, StandardCharsets.UTF_8));
            }
            return length + " bytes: " + new String(message, StandardCharsets.UTF_8) + ", written back, on "
                    + connection.settings().provider() + " " + connection.settings().device();
        }
    }

    /** Connects on {@code provider} and runs the client's side, checking every byte it gets back. */
    static void client(InetSocketAddress address, IwarpOptions.Provider provider, byte[] message)
            throws Exception {
        Buffers buffers = new Buffers();
        try (ExtendedSocket socket = new ExtendedSocket()) {
            socket.setOption(IwarpOptions.PROVIDER, provider);
            socket.setOption(IwarpOptions.STREAMS, false);
            socket.setOption(IwarpOptions.SETUP, buffers::prepare);
            socket.setOption(IwarpOptions.MPA_TIMEOUT, (int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            socket.connect(address, (int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            IwarpConnection connection = socket.iwarp();
            System.out.println("client connected " + connection + " " + connection.settings());
            buffers.outbound.buffer().put(0, message);
            connection.post(new SendRequest().tag(MESSAGE_SEND).gather(buffers.outbound.slice(0, message.length)));
            Map<Long, WorkCompletion> got = completions(connection, MESSAGE_SEND, FIRST_RECEIVE, SECOND_RECEIVE);
            byte[] echo = new byte[(int) got.get(FIRST_RECEIVE).byteLength()];
            buffers.inbound.buffer().get(0, echo);
            if (!Arrays.equals(message, echo)) {
                throw new IllegalStateException("the echo differs: sent " + message.length + " bytes, got back "
                        + echo.length + ": " + new String(echo, StandardCharsets.UTF_8));
            }
            System.out.println("client got its " + echo.length + " bytes back");
            RemoteBuffer serverTarget = RemoteBuffer.readFrom(buffers.inbound.buffer().slice(HALF,
                    RemoteBuffer.ENCODED_LENGTH));
            connection.post(new WriteRequest().tag(WRITE).gather(buffers.outbound.slice(0, message.length))
                    .target(serverTarget.slice(0, message.length)));
            connection.post(new ReadRequest().tag(READ).source(serverTarget.slice(HALF, SERVER_PATTERN.length))
                    .sink(buffers.target.slice(0, SERVER_PATTERN.length)));
            completions(connection, WRITE, READ);
            byte[] read = new byte[SERVER_PATTERN.length];
            buffers.target.buffer().get(0, read);
            if (!Arrays.equals(SERVER_PATTERN, read)) {
                throw new IllegalStateException("the RDMA Read brought other bytes: "
                        + new String(read, StandardCharsets.US_ASCII));
            }
            System.out.println("client wrote " + message.length + " bytes and read " + read.length + " bytes of "
                    + serverTarget);
            buffers.outbound.buffer().put(HALF, DONE);
            connection.post(new SendRequest().tag(DONE_SEND).gather(buffers.outbound.slice(HALF, DONE.length)));
            completions(connection, DONE_SEND);
        }
    }

    /** Takes completions until one of each tag came, each a success; in whatever order they come. */
    private static Map<Long, WorkCompletion> completions(IwarpConnection connection, long... tags) throws Exception {
        Set<Long> wanted = new java.util.HashSet<>();
        for (long tag : tags) {
            wanted.add(tag);
        }
        Map<Long, WorkCompletion> got = new HashMap<>();
        while (!got.keySet().containsAll(wanted)) {
            WorkCompletion completion = connection.completions().take(WAIT_SECONDS, TimeUnit.SECONDS);
            if (completion == null) {
                throw new IllegalStateException("no completion within " + WAIT_SECONDS + " s; waiting for tags "
                        + wanted + ", got " + got.keySet());
            }
            if (!completion.isSuccess()) {
                throw new IllegalStateException("a request failed: " + completion);
            }
            got.put(completion.tag(), completion);
        }
        return got;
    }
}
