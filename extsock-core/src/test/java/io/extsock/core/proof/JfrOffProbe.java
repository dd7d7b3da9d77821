package io.extsock.core.proof;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpOptions;
import io.extsock.testkit.pair.IwarpSocketPair;
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
        try (IwarpSocketPair pair = IwarpSocketPair.open()) {
            IwarpConnection reader = pair.serverVerbs();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    pair.client().getOutputStream().write(new byte[1 << 20]);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            while (reader.statistics().messagesReceived(MessageType.SEND) < 3) {
                Thread.sleep(5);  // a polling interval
            }
            pair.accepted().getInputStream().readNBytes(1 << 20);
            writer.get(30, TimeUnit.SECONDS);
            System.out.println("window " + reader.statistics().streamWindow());
        }
        try (IwarpSocketPair verbs = IwarpSocketPair.openVerbs()) {
            IwarpConnection client = verbs.clientVerbs();
            MemoryRegion target = verbs.serverVerbs().register(ByteBuffer.allocateDirect(100),
                    EnumSet.of(Access.REMOTE_WRITE));
            MemoryRegion source = client.register(ByteBuffer.allocateDirect(200), Set.of());
            client.post(new WriteRequest().gather(source.slice(0, 200)).target(new RemoteBuffer(target.stag(), 0, 200)));
            while (!client.toString().contains("state=CLOSED") || !verbs.serverVerbs().toString().contains("state=CLOSED")) {
                Thread.sleep(5);  // a polling interval
            }
            System.out.println("terminated " + client.statistics().messagesReceived(MessageType.TERMINATE));
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
}
