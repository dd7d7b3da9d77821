package io.extsock.rdma.siw;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

/**
 * One Send each way between extsock's two providers, every byte checked: the server echoes what
 * it received. {@code server ADDRESS PORT PROVIDER} accepts one connection; {@code client HOST
 * PORT PROVIDER MESSAGE} connects, sends MESSAGE and checks the echo. PROVIDER is auto, software
 * or device. The socket's streams are off: the Sends are the application's own.
 */
public final class VerbsEcho {

    private static final int SIZE = 4096;
    private static final long WAIT_SECONDS = 300;  // a JVM under QEMU's emulation is slow to start

    private VerbsEcho() {
    }

    public static void main(String[] args) throws Exception {
        IwarpOptions.Provider provider = IwarpOptions.Provider.parse(args[3]);
        if (args[0].equals("server")) {
            server(new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2])), provider);
        } else {
            client(new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2])), provider,
                    args[4].getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Memory and a posted Receive, ready before the peer can send. */
    static final class Buffers {
        MemoryRegion inbound;
        MemoryRegion outbound;

        void prepare(IwarpConnection connection) throws IOException {
            inbound = connection.register(ByteBuffer.allocateDirect(SIZE), EnumSet.of(Access.LOCAL_WRITE));
            outbound = connection.register(ByteBuffer.allocateDirect(SIZE), EnumSet.noneOf(Access.class));
            connection.post(new ReceiveRequest().tag(1).scatter(inbound.slice(0, SIZE)));
        }
    }

    private static void server(InetSocketAddress address, IwarpOptions.Provider provider) throws Exception {
        Buffers buffers = new Buffers();
        try (ExtendedServerSocket server = listen(address, provider, buffers)) {
            System.out.println("server listening on " + address);
            System.out.println("server echoed " + serveOne(server, buffers));
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
     * Accepts one connection, echoes the Send it receives and closes it.
     *
     * @return what it echoed and how the connection ran: "N bytes: MESSAGE, on PROVIDER DEVICE"
     */
    static String serveOne(ExtendedServerSocket server, Buffers buffers) throws Exception {
        try (ExtendedSocket socket = (ExtendedSocket) server.accept()) {
            IwarpConnection connection = socket.iwarp();
            System.out.println("server accepted " + connection + " " + connection.settings());
            WorkCompletion received = take(connection, "the client's Send");
            int length = (int) received.byteLength();
            byte[] message = new byte[length];
            buffers.inbound.buffer().get(0, message);
            buffers.outbound.buffer().put(0, message);
            connection.post(new SendRequest().tag(2).gather(buffers.outbound.slice(0, length)));
            take(connection, "the echo's Send");
            return length + " bytes: " + new String(message, StandardCharsets.UTF_8) + ", on "
                    + connection.settings().provider() + " " + connection.settings().device();
        }
    }

    /** Connects on {@code provider}, sends {@code message}, checks its echo byte by byte. */
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
            connection.post(new SendRequest().tag(3).gather(buffers.outbound.slice(0, message.length)));
            take(connection, "the client's Send");
            WorkCompletion echo = take(connection, "the echo");
            byte[] back = new byte[(int) echo.byteLength()];
            buffers.inbound.buffer().get(0, back);
            if (!java.util.Arrays.equals(message, back)) {
                throw new IllegalStateException("the echo differs: sent " + message.length + " bytes, got back "
                        + back.length + ": " + new String(back, StandardCharsets.UTF_8));
            }
            System.out.println("client got its " + back.length + " bytes back");
        }
    }

    private static WorkCompletion take(IwarpConnection connection, String what) throws Exception {
        WorkCompletion completion = connection.completions().take(WAIT_SECONDS, TimeUnit.SECONDS);
        if (completion == null) {
            throw new IllegalStateException("no completion for " + what + " within " + WAIT_SECONDS + " s");
        }
        if (!completion.isSuccess()) {
            throw new IllegalStateException(what + " failed: " + completion);
        }
        return completion;
    }
}
