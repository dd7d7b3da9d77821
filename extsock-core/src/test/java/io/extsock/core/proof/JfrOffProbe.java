package io.extsock.core.proof;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.MessageType;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WriteRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jfr.FlightRecorder;

/**
 * Run by {@link JfrOffTest} in a JVM of its own, without JFR: does everything that has an event
 * (switches, a stream window growth, a Terminate each way, a failed switch, closes), then prints
 * whether JFR was set up.
 */
public final class JfrOffProbe {

    private JfrOffProbe() {
    }

    public static void main(String[] args) throws Exception {
        try (ExtendedServerSocket server = new ExtendedServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ExtendedSocket[] pair = pair(server, true);
            IwarpConnection reader = pair[1].iwarp();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    pair[0].getOutputStream().write(new byte[1 << 20]);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            while (reader.statistics().messagesReceived(MessageType.SEND) < 3) {
                Thread.sleep(5);
            }
            pair[1].getInputStream().readNBytes(1 << 20);
            writer.get(30, TimeUnit.SECONDS);
            System.out.println("window " + reader.statistics().streamWindow());
            pair[0].close();
            pair[1].close();

            ExtendedSocket[] verbs = pair(server, false);
            IwarpConnection client = verbs[0].iwarp();
            MemoryRegion target = verbs[1].iwarp().register(ByteBuffer.allocateDirect(100),
                    EnumSet.of(Access.REMOTE_WRITE));
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(200), Set.of());
            client.post(new WriteRequest().gather(source.slice(0, 200)).target(new RemoteBuffer(target.stag(), 0, 200)));
            while (!client.toString().contains("state=CLOSED") || !verbs[1].iwarp().toString().contains("state=CLOSED")) {
                Thread.sleep(5);
            }
            System.out.println("terminated " + client.statistics().messagesReceived(MessageType.TERMINATE));
            verbs[0].close();
            verbs[1].close();
        }
        try (ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ExtendedSocket socket = new ExtendedSocket()) {
            CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
                try (Socket accepted = plain.accept()) {
                    accepted.getOutputStream().write("not iWARP".getBytes());
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            try {
                socket.connect(plain.getLocalSocketAddress());
            } catch (IwarpNegotiationException expected) {
                System.out.println("failed " + expected.reason());
            }
            peer.get(30, TimeUnit.SECONDS);
        }
        System.out.println("jfr initialized " + FlightRecorder.isInitialized());
    }

    private static ExtendedSocket[] pair(ExtendedServerSocket server, boolean streams) throws Exception {
        ExtendedSocket client = new ExtendedSocket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        ExtendedSocket accepted = server.accept();
        client.setOption(IwarpOptions.STREAMS, streams);
        accepted.setOption(IwarpOptions.STREAMS, streams);
        CompletableFuture<Void> responder = CompletableFuture.runAsync(() -> {
            try {
                accepted.setOption(IwarpOptions.IWARP_MODE, true);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        client.setOption(IwarpOptions.IWARP_MODE, true);
        responder.get(30, TimeUnit.SECONDS);
        return new ExtendedSocket[] {client, accepted};
    }
}
