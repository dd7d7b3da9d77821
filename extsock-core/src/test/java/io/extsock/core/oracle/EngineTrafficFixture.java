package io.extsock.core.oracle;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The engine's own traffic for Wireshark to judge: two ExtendedSockets on {@code
 * 127.0.0.1:<port>} switch to IWARP_MODE through the public API and run a scenario. Exits
 * non-zero if anything the scenario checks goes wrong.
 *
 * <p>Usage: {@code EngineTrafficFixture <port> <scenario>}, scenario one of {@link Scenario}.
 */
public final class EngineTrafficFixture {

    /** What runs over the connection. */
    public enum Scenario {
        /** The socket's streams over Sends, both ways, with CRC (the default settings). */
        STREAMS,
        /** The same without CRC. */
        STREAMS_NO_CRC,
        /** Verbs: Sends and Receives (with SE, with Invalidate), RDMA Write, RDMA Read. */
        VERBS,
        /** An RDMA Read of an STag that does not exist: the peer answers with a Terminate. */
        TERMINATE
    }

    private static final Set<Access> REMOTE_RW = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
            Access.REMOTE_WRITE);

    /** The client's region, registered by its setup hook. */
    private static volatile MemoryRegion descriptorInbox;

    private EngineTrafficFixture() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Scenario scenario = Scenario.valueOf(args[1]);
        boolean streams = scenario == Scenario.STREAMS || scenario == Scenario.STREAMS_NO_CRC;
        try (ExtendedServerSocket server = new ExtendedServerSocket()) {
            server.setOption(IwarpOptions.IWARP_MODE, true);
            server.setOption(IwarpOptions.STREAMS, streams);
            server.setOption(IwarpOptions.CRC, scenario != Scenario.STREAMS_NO_CRC);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            CompletableFuture<Void> serverSide = CompletableFuture.runAsync(() -> {
                try (ExtendedSocket accepted = server.accept()) {
                    serve(accepted, scenario);
                } catch (Exception e) {
                    throw new RuntimeException("server side: " + e, e);
                }
            });
            try (ExtendedSocket client = new ExtendedSocket()) {
                if (scenario == Scenario.VERBS) {
                    // The server sends its region's descriptor at once: the Receive must be posted first.
                    client.setOption(IwarpOptions.SETUP, verbs -> {
                        descriptorInbox = verbs.register(ByteBuffer.allocateDirect(64 * 1024), REMOTE_RW);
                        verbs.post(new ReceiveRequest().tag(1).scatter(descriptorInbox.slice(0, 16)));
                    });
                }
                client.setOption(IwarpOptions.IWARP_MODE, true);
                client.setOption(IwarpOptions.STREAMS, streams);
                client.setOption(IwarpOptions.CRC, scenario != Scenario.STREAMS_NO_CRC);
                client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                drive(client, scenario, serverSide);
            }
            serverSide.get(60, TimeUnit.SECONDS);
        }
        System.out.println("engine traffic " + scenario + ": done");
    }

    /** @param serverSide the server's end of the scenario, which some wait for before the client closes */
    private static void drive(ExtendedSocket client, Scenario scenario, CompletableFuture<Void> serverSide)
            throws Exception {
        switch (scenario) {
            case STREAMS:
            case STREAMS_NO_CRC: {
                byte[] data = random(300_000, 1);
                DataOutputStream out = new DataOutputStream(client.getOutputStream());
                out.writeInt(data.length);
                out.write(data);
                byte[] back = new DataInputStream(client.getInputStream()).readNBytes(data.length);
                check(java.util.Arrays.equals(data, back), "the echo differs");
                break;
            }
            case VERBS: {
                IwarpConnection verbs = client.iwarp();
                MemoryRegion local = descriptorInbox;
                // The server's region descriptor arrives in a Send, into the Receive posted at setup.
                WorkCompletion received = verbs.completions().take(20, TimeUnit.SECONDS);
                checkOk(received);
                RemoteBuffer remote = RemoteBuffer.readFrom(local.buffer().position(0).limit(16));
                local.buffer().put(16, random(64 * 1024 - 16, 2));
                checkOk(verbs.submit(new WriteRequest().tag(2).gather(local.slice(1024, 20_000))
                        .target(remote.slice(0, 20_000))).get(20, TimeUnit.SECONDS));
                MemoryRegion sink = verbs.register(ByteBuffer.allocateDirect(30_000), EnumSet.of(Access.LOCAL_WRITE));
                checkOk(verbs.submit(new ReadRequest().tag(3).source(remote.slice(0, 30_000))
                        .sink(sink.slice(0, 30_000))).get(20, TimeUnit.SECONDS));
                for (int i = 0; i < 20_000; i++) {
                    check(sink.buffer().get(i) == local.buffer().get(1024 + i), "the read does not return the write");
                }
                checkOk(verbs.submit(new SendRequest().tag(4).gather(local.slice(0, 100)).solicited(true))
                        .get(20, TimeUnit.SECONDS));
                checkOk(verbs.submit(new SendRequest().tag(5).invalidate(remote.stag())).get(20, TimeUnit.SECONDS));
                serverSide.get(60, TimeUnit.SECONDS);  // the server took both Sends (a Send completes once in TCP)
                break;
            }
            case TERMINATE: {
                IwarpConnection verbs = client.iwarp();
                MemoryRegion sink = verbs.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
                WorkCompletion read = verbs.submit(new ReadRequest().tag(1).source(new RemoteBuffer(0x7777_7700, 0, 64))
                        .sink(sink.slice(0, 64))).get(20, TimeUnit.SECONDS);
                check(read.status() == CompletionStatus.REMOTE_ACCESS_ERROR, "expected a remote access error: " + read);
                serverSide.get(60, TimeUnit.SECONDS);  // the server's end has ended after its Terminate
                break;
            }
            default:
                throw new AssertionError(scenario);
        }
    }

    private static void serve(ExtendedSocket accepted, Scenario scenario) throws Exception {
        switch (scenario) {
            case STREAMS:
            case STREAMS_NO_CRC: {
                DataInputStream in = new DataInputStream(accepted.getInputStream());
                byte[] data = in.readNBytes(in.readInt());
                accepted.getOutputStream().write(data);
                accepted.shutdownOutput();
                check(in.read() == -1, "expected the end of the client's stream");
                break;
            }
            case VERBS: {
                IwarpConnection verbs = accepted.iwarp();
                MemoryRegion exposed = verbs.register(ByteBuffer.allocateDirect(30_000), REMOTE_RW);
                MemoryRegion inbox = verbs.register(ByteBuffer.allocateDirect(4096), EnumSet.of(Access.LOCAL_WRITE));
                verbs.post(new ReceiveRequest().tag(10).scatter(inbox.slice(0, 1024)));
                verbs.post(new ReceiveRequest().tag(11).scatter(inbox.slice(1024, 1024)));
                MemoryRegion descriptor = verbs.register(ByteBuffer.allocateDirect(16), Set.of());
                exposed.remote().writeTo(descriptor.buffer());
                checkOk(verbs.submit(new SendRequest().tag(12).gather(descriptor.slice(0, 16))).get(20, TimeUnit.SECONDS));
                checkOk(verbs.completions().take(20, TimeUnit.SECONDS));
                WorkCompletion invalidated = verbs.completions().take(20, TimeUnit.SECONDS);
                checkOk(invalidated);
                check(invalidated.invalidatedStag() == exposed.stag() && !exposed.isValid(), "not invalidated");
                break;
            }
            case TERMINATE: {
                accepted.iwarp();  // switch, then let the engine answer the bad Read with a Terminate
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!accepted.isClosed() && System.nanoTime() < deadline) {
                    try {
                        accepted.iwarp().register(ByteBuffer.allocateDirect(8), Set.of());
                    } catch (IOException ended) {
                        return;
                    }
                    Thread.sleep(20);  // a polling interval
                }
                break;
            }
            default:
                throw new AssertionError(scenario);
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    private static void checkOk(WorkCompletion completion) {
        check(completion != null && completion.isSuccess(), "expected success: " + completion);
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException(failure);
        }
    }
}
