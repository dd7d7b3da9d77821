package io.extsock.core.proof;

import static io.extsock.core.proof.VerbsScenario.REGION;
import static io.extsock.core.proof.VerbsScenario.SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WorkOpcode;
import io.extsock.verbs.WorkRequest;
import io.extsock.verbs.WriteRequest;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The test JVM's side of the verbs across two JVM processes: a child JVM ({@link
 * VerbsPeerProcess}) serves IWARP_MODE connections on a port while this JVM drives them, one
 * connection per {@link VerbsScenario}: Sends and Receives with Solicited Event and with
 * Invalidate, RDMA Writes the child checks, RDMA Reads, zero-length operations, and each error
 * path (RDMA Read and Write to an invalid STag, out of bounds, without the right, to a
 * deregistered region, to an STag invalidated by a Send with Invalidate; a Send with no Receive
 * posted; a Send longer than the Receive, each way; the peer closing). Both sides check the
 * completions by their typed status and cause (the Terminate's layer, error type and code, RFC
 * 5040 section 4.8 and RFC 5041 section 7.2, a connection lost, a close), that every request
 * completes exactly once, and that the connection ends on both sides; the child reports what it
 * saw over a control connection on a second port.
 *
 * <p>{@link TwoProcessVerbsIT} runs each scenario as a test of its own against one child;
 * {@link TwoProcessVerbsWireIT} runs them all under a capture that the wire judge must pass.
 */
final class TwoProcessVerbs implements AutoCloseable {

    private static final Set<Access> REMOTE_RW = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
            Access.REMOTE_WRITE);
    private static final long WAIT_SECONDS = 20;
    /** Descriptor Receive, and the Receives that must be flushed when a connection ends. */
    private static final long DESCRIPTOR = 10;
    private static final long FLUSH_A = 90;
    private static final long FLUSH_B = 91;
    private static final long CHILD_SECONDS = 240;

    /** Terminate layers (RFC 5040 section 4.8). */
    private static final int RDMAP = 0;
    private static final int DDP = 1;
    /** RDMAP error type: remote protection error, and its codes. */
    private static final int REMOTE_PROTECTION = 0x1;
    private static final int INVALID_STAG = 0x00;
    private static final int BASE_OR_BOUNDS = 0x01;
    private static final int ACCESS_RIGHTS = 0x02;
    /** DDP error types (RFC 5041 section 7.2): tagged and untagged buffer errors, and the untagged codes. */
    private static final int TAGGED_BUFFER = 0x1;
    private static final int UNTAGGED_BUFFER = 0x2;
    private static final int NO_BUFFER_AVAILABLE = 0x02;
    private static final int MESSAGE_TOO_LONG = 0x05;

    private final int port;
    private final JavaProcess child;
    private final CompletableFuture<Integer> exited;
    private final Control control;
    /** The scenario after which the child could not be brought back in step, or null. */
    private VerbsScenario outOfStepAfter;

    private TwoProcessVerbs(int port, JavaProcess child, CompletableFuture<Integer> exited, Control control) {
        this.port = port;
        this.child = child;
        this.exited = exited;
        this.control = control;
    }

    /** Starts the child, serving IWARP_MODE connections on {@code port}, and connects to its control port. */
    static TwoProcessVerbs start(int port) throws Exception {
        Proof.warmUpTerminate();
        int controlPort = Proof.freePort();
        JavaProcess child = JavaProcess.startMain(VerbsPeerProcess.class, String.valueOf(port),
                String.valueOf(controlPort));
        try {
            CompletableFuture<Integer> exited = CompletableFuture.supplyAsync(() -> {
                try {
                    return child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS);
                } catch (IOException | InterruptedException e) {
                    throw new CompletionException(e);
                }
            });
            return new TwoProcessVerbs(port, child, exited, Control.connect(controlPort, exited, child::output));
        } catch (Exception | Error e) {
            child.close();
            throw e;
        }
    }

    /**
     * Runs one scenario on both sides and checks them. On a failure, the child is brought to the
     * scenario's end first, so that the next scenario can run; the failure names what the child said.
     */
    void run(VerbsScenario scenario) throws Exception {
        assertNull(outOfStepAfter, () -> "the child is out of step since " + outOfStepAfter);
        control.begin(scenario);
        try {
            control.send("RUN " + scenario);
            drive(scenario);
            checkPeer(scenario, control.awaitDone());
            System.out.println("two-process verbs: " + scenario + " ok");
        } catch (Throwable t) {
            String resync = "";
            try {
                if (!control.done()) {
                    control.awaitDone();
                }
            } catch (Throwable notInStep) {
                outOfStepAfter = scenario;
                resync = "\nand the child did not finish the scenario: " + notInStep;
            }
            throw new AssertionError(scenario + ": " + t + resync + "\nthe child said:\n    "
                    + String.join("\n    ", control.transcript()), t);
        }
    }

    /** Tells the child to quit and returns its exit code. */
    int quit() throws Exception {
        control.send("QUIT");
        control.close();
        return exited.get(CHILD_SECONDS, TimeUnit.SECONDS);
    }

    /** What the child printed so far. */
    String childOutput() {
        return child.output();
    }

    @Override
    public void close() throws Exception {
        control.close();
        child.close();
    }

    // ---- this JVM's side of each scenario ---------------------------------------------------

    private void drive(VerbsScenario scenario) throws Exception {
        if (scenario == VerbsScenario.STREAM_ECHO) {
            streamEcho();
            return;
        }
        try (Client client = Client.open(port, scenario)) {
            switch (scenario) {
                case SEND_RECEIVE -> sendReceive(client, control);
                case RDMA_WRITE -> rdmaWrite(client, control);
                case RDMA_READ -> rdmaRead(client);
                case READ_INVALID_STAG, READ_OUT_OF_BOUNDS, READ_WITHOUT_RIGHT, READ_DEREGISTERED, READ_INVALIDATED ->
                        badRead(client, control, scenario);
                case WRITE_INVALID_STAG, WRITE_OUT_OF_BOUNDS, WRITE_WITHOUT_RIGHT, WRITE_DEREGISTERED,
                        WRITE_INVALIDATED -> badWrite(client, control, scenario);
                case SEND_NO_RECEIVE -> badSend(client, 100, terminateOf(scenario));
                case SEND_TOO_LONG_TO_PEER -> badSend(client, 5000, terminateOf(scenario));
                case SEND_TOO_LONG_FROM_PEER -> {
                    CompletionCause ours = terminateOf(scenario).sent();  // this side finds the Send too long
                    WorkCompletion tooLong = client.expect(FLUSH_A);
                    assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, tooLong.status(), tooLong.toString());
                    assertEquals(ours, tooLong.cause(), tooLong.toString());
                    assertFlushed(client.expect(FLUSH_B), ours);
                    assertEnded(client);
                }
                case PEER_CLOSES -> {
                    client.post(new SendRequest().tag(27));
                    assertSuccess(client.expect(27));
                    control.await("C 80");
                    control.send("CLOSE");
                    for (long tag = FLUSH_A; tag < FLUSH_A + 8; tag++) {
                        assertFlushed(client.expect(tag), CompletionCause.CONNECTION_LOST);
                    }
                    assertEnded(client);
                }
                default -> throw new AssertionError(scenario);
            }
            client.assertAllAccountedFor();
        }
    }

    private void streamEcho() throws Exception {
        byte[] data = Proof.random(200_000, SEED + 1);
        try (ExtendedSocket socket = new ExtendedSocket()) {
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            socket.setReceiveBufferSize(VerbsScenario.RECEIVE_BUFFER);
            socket.connect(new InetSocketAddress(Proof.LOOPBACK, port), 10_000);
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(data.length);
            out.write(data);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] digest = new byte[32];
            in.readFully(digest);
            assertArrayEquals(Proof.sha256().digest(data), digest, "the child's SHA-256 of what it read");
            byte[] back = new byte[data.length];
            in.readFully(back);
            assertArrayEquals(data, back, "the echo");
            assertEquals(-1, in.read(), "the child shut its output down");
        }
    }

    private void sendReceive(Client client, Control control) throws Exception {
        IwarpConnection verbs = client.verbs;
        MemoryRegion out = verbs.register(ByteBuffer.allocateDirect(16384), Set.of());
        byte[] plain = Proof.random(5000, SEED + 2);
        byte[] solicited = Proof.random(100, SEED + 3);
        out.buffer().put(0, plain).put(5000, solicited);
        client.mine.remote().writeTo(out.buffer().position(8192));
        RemoteBuffer theirs = client.peerRegion;
        client.post(new SendRequest().tag(21).gather(out.slice(0, 5000)));
        client.post(new SendRequest().tag(22).gather(out.slice(5000, 100)).solicited(true));
        client.post(new SendRequest().tag(23));
        client.post(new SendRequest().tag(24).gather(out.slice(8192, 16)).invalidate(theirs.stag()));
        for (long tag = 21; tag <= 24; tag++) {
            assertSuccess(client.expect(tag));
        }
        // The child answers: the first message echoed, a zero-length Send with SE, and a Send with
        // SE and Invalidate of the region this side advertised in the fourth message.
        WorkCompletion echo = client.expect(11);
        assertSuccess(echo);
        assertEquals(5000, echo.byteLength());
        assertFalse(echo.solicited());
        assertArrayEquals(plain, Proof.bytes(client.inbox.buffer(), 8192, 5000));
        WorkCompletion empty = client.expect(12);
        assertSuccess(empty);
        assertEquals(0, empty.byteLength());
        assertTrue(empty.solicited());
        assertEquals(0, empty.invalidatedStag());
        WorkCompletion invalidating = client.expect(13);
        assertSuccess(invalidating);
        assertEquals(8, invalidating.byteLength());
        assertTrue(invalidating.solicited());
        assertEquals(client.mine.stag(), invalidating.invalidatedStag());
        assertEquals("goodbye!", new String(Proof.bytes(client.inbox.buffer(), 3 * 8192, 8), StandardCharsets.US_ASCII));
        assertFalse(client.mine.isValid(), "the child's Send with Invalidate invalidated this side's region");
        control.await("VALID");
    }

    private void rdmaWrite(Client client, Control control) throws Exception {
        IwarpConnection verbs = client.verbs;
        byte[] data = Proof.random(160 * 1024, SEED + 4);
        MemoryRegion source = verbs.register(ByteBuffer.allocateDirect(data.length).put(data), Set.of());
        RemoteBuffer target = client.peerRegion;
        assertEquals(VerbsScenario.WRITE_TARGET, target.length());
        byte[] expected = new byte[VerbsScenario.WRITE_TARGET];
        // Three gathered slices to TO 1000; a zero-length Write; the region's last byte; 4000 more.
        client.post(new WriteRequest().tag(31).gather(source.slice(0, 30_000), source.slice(40_000, 30_000),
                source.slice(100_000, 40_000)).target(target.slice(1000, 100_000)));
        System.arraycopy(data, 0, expected, 1000, 30_000);
        System.arraycopy(data, 40_000, expected, 31_000, 30_000);
        System.arraycopy(data, 100_000, expected, 61_000, 40_000);
        client.post(new WriteRequest().tag(32).target(target.slice(0, 0)));
        client.post(new WriteRequest().tag(33).gather(source.slice(5, 1)).target(target.slice(target.length() - 1, 1)));
        expected[expected.length - 1] = data[5];
        client.post(new WriteRequest().tag(34).gather(source.slice(60_000, 4000)).target(target.slice(200_000, 4000)));
        System.arraycopy(data, 60_000, expected, 200_000, 4000);
        long[] lengths = {100_000, 0, 1, 4000};
        for (int i = 0; i < 4; i++) {
            WorkCompletion written = client.expect(31 + i);
            assertSuccess(written);
            assertEquals(WorkOpcode.RDMA_WRITE, written.opcode());
            assertEquals(lengths[i], written.byteLength());
        }
        // A Send after the Writes: when it arrives, the Writes have been placed (RFC 5040 5.5).
        byte[] digest = Proof.sha256().digest(expected);
        MemoryRegion message = verbs.register(ByteBuffer.allocateDirect(32).put(digest), Set.of());
        client.post(new SendRequest().tag(35).gather(message.slice(0, 32)));
        assertSuccess(client.expect(35));
        String targetSha = control.await("SHA target").substring("SHA target ".length());
        assertEquals(HexFormat.of().formatHex(digest), targetSha, "what the child's region holds after the Writes");
    }

    private void rdmaRead(Client client) throws Exception {
        IwarpConnection verbs = client.verbs;
        byte[] data = Proof.random(VerbsScenario.READ_SOURCE, SEED);
        RemoteBuffer source = client.peerRegion;
        assertEquals(data.length, source.length());
        int pieces = 16;
        MemoryRegion sink = verbs.register(ByteBuffer.allocateDirect(data.length + pieces * 10_000),
                EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(41).source(source).sink(sink.slice(0, data.length)));
        // ORD (16) Reads outstanding at once, and a zero-length one behind them.
        for (int k = 0; k < pieces; k++) {
            client.post(new ReadRequest().tag(50 + k).source(source.slice(k * 17_000L + 3, 10_000))
                    .sink(sink.slice(data.length + k * 10_000L, 10_000)));
        }
        client.post(new ReadRequest().tag(42).source(source.slice(0, 0)).sink(sink.slice(0, 0)));
        WorkCompletion whole = client.expect(41);
        assertSuccess(whole);
        assertEquals(data.length, whole.byteLength());
        assertArrayEquals(data, Proof.bytes(sink.buffer(), 0, data.length));
        for (int k = 0; k < pieces; k++) {
            WorkCompletion piece = client.expect(50 + k);
            assertSuccess(piece);
            assertEquals(10_000, piece.byteLength());
            byte[] want = new byte[10_000];
            System.arraycopy(data, k * 17_000 + 3, want, 0, want.length);
            assertArrayEquals(want, Proof.bytes(sink.buffer(), data.length + k * 10_000, 10_000), "read " + k);
        }
        WorkCompletion empty = client.expect(42);
        assertSuccess(empty);
        assertEquals(0, empty.byteLength());
    }

    private void badRead(Client client, Control control, VerbsScenario scenario) throws Exception {
        RemoteBuffer region = client.peerRegion;
        RemoteBuffer source = switch (scenario) {
            case READ_INVALID_STAG -> new RemoteBuffer(region.stag() ^ 0xFF, 0, 64);  // the key guessed wrong
            case READ_OUT_OF_BOUNDS -> new RemoteBuffer(region.stag(), REGION - 96, 200);
            default -> region.slice(0, 64);
        };
        killRegion(client, control, scenario);
        MemoryRegion sink = client.verbs.register(ByteBuffer.allocateDirect(256), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(60).source(source).sink(sink.slice(0, (int) source.length())));
        CompletionCause cause = terminateOf(scenario).received();  // the child refuses the Read
        WorkCompletion read = client.expect(60);
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, read.status(), read.toString());
        assertEquals(cause, read.cause(), read.toString());
        assertEnded(client);
        assertFlushed(client.expect(FLUSH_A), cause);
        assertFlushed(client.expect(FLUSH_B), cause);
    }

    private void badWrite(Client client, Control control, VerbsScenario scenario) throws Exception {
        RemoteBuffer region = client.peerRegion;
        RemoteBuffer target = switch (scenario) {
            case WRITE_INVALID_STAG -> new RemoteBuffer(region.stag() ^ 0xFF, 0, 64);
            case WRITE_OUT_OF_BOUNDS -> new RemoteBuffer(region.stag(), REGION - 96, 200);
            default -> region.slice(0, 64);
        };
        killRegion(client, control, scenario);
        MemoryRegion source = client.verbs.register(ByteBuffer.allocateDirect(200).put(Proof.random(200, SEED + 5)),
                Set.of());
        MemoryRegion sink = client.verbs.register(ByteBuffer.allocateDirect(64), EnumSet.of(Access.LOCAL_WRITE));
        CompletionCause cause = terminateOf(scenario).received();  // the child refuses the Write
        client.post(new WriteRequest().tag(61).gather(source.slice(0, (int) target.length())).target(target));
        // A Read behind the Write: the child terminates on the Write and never answers it. If the
        // Terminate is back before the Read is posted, posting it fails, naming the cause.
        String readOutcome;
        try {
            client.post(new ReadRequest().tag(62).source(new RemoteBuffer(region.stag(), 0, 64))
                    .sink(sink.slice(0, 64)));
            WorkCompletion read = client.expect(62);
            // The Terminate is about the Write (a DDP tagged error): the Read is flushed, not blamed.
            assertFlushed(read, cause);
            readOutcome = read.status().toString();
        } catch (IOException ended) {
            client.forget(62);  // the connection had ended: the flushed Receives below name the cause
            readOutcome = "not posted: " + ended.getMessage();
        }
        // An RDMA Write is not acknowledged (RFC 5040 5.1): it completes when its bytes leave, so
        // the violation comes back as the peer's Terminate, which ends the connection.
        WorkCompletion write = client.expect(61);
        assertSuccess(write);
        assertEnded(client);
        assertFlushed(client.expect(FLUSH_A), cause);
        assertFlushed(client.expect(FLUSH_B), cause);
        System.out.println("two-process verbs: " + scenario + ": the bad Write completed " + write.status()
                + ", the Read behind it " + readOutcome);
    }

    /** Deregistration, or invalidation by a Send with Invalidate, before the access. */
    private static void killRegion(Client client, Control control, VerbsScenario scenario) throws Exception {
        switch (scenario) {
            case READ_DEREGISTERED, WRITE_DEREGISTERED -> {
                control.send("DEREGISTER");
                control.await("DEREGISTERED");
            }
            case READ_INVALIDATED, WRITE_INVALIDATED -> {
                client.post(new SendRequest().tag(25).invalidate(client.peerRegion.stag()));
                assertSuccess(client.expect(25));
                control.await("INVALIDATED");
            }
            default -> {
            }
        }
    }

    private static void badSend(Client client, int length, Terminate refusal) throws Exception {
        MemoryRegion source = client.verbs.register(ByteBuffer.allocateDirect(length), Set.of());
        client.post(new SendRequest().tag(26).gather(source.slice(0, length)));
        assertSuccess(client.expect(26));  // its bytes left: a Send is not acknowledged
        assertEnded(client);
        assertFlushed(client.expect(FLUSH_A), refusal.received());
        assertFlushed(client.expect(FLUSH_B), refusal.received());
    }

    /** A Terminate's layer, error type and error code (RFC 5040 section 4.8). */
    private record Terminate(int layer, int errorType, int errorCode) {

        /** As the end that received it reports it. */
        CompletionCause received() {
            return CompletionCause.terminateReceived(layer, errorType, errorCode);
        }

        /** As the end that sent it reports it. */
        CompletionCause sent() {
            return CompletionCause.terminateSent(layer, errorType, errorCode);
        }
    }

    /**
     * The Terminate an error scenario ends in: a Read Request's fault is RDMAP's remote protection
     * error (RFC 5040 section 4.8), a Write's DDP's tagged buffer error and a Send's its untagged
     * buffer error (RFC 5041 section 7.2).
     */
    private static Terminate terminateOf(VerbsScenario scenario) {
        return switch (scenario) {
            case READ_OUT_OF_BOUNDS -> new Terminate(RDMAP, REMOTE_PROTECTION, BASE_OR_BOUNDS);
            case READ_WITHOUT_RIGHT -> new Terminate(RDMAP, REMOTE_PROTECTION, ACCESS_RIGHTS);
            case READ_INVALID_STAG, READ_DEREGISTERED, READ_INVALIDATED ->
                    new Terminate(RDMAP, REMOTE_PROTECTION, INVALID_STAG);
            case WRITE_OUT_OF_BOUNDS -> new Terminate(DDP, TAGGED_BUFFER, BASE_OR_BOUNDS);
            // RFC 5041 section 7.2 has no access-rights code for tagged buffers: invalid STag (as siw).
            case WRITE_INVALID_STAG, WRITE_WITHOUT_RIGHT, WRITE_DEREGISTERED, WRITE_INVALIDATED ->
                    new Terminate(DDP, TAGGED_BUFFER, INVALID_STAG);
            case SEND_NO_RECEIVE -> new Terminate(DDP, UNTAGGED_BUFFER, NO_BUFFER_AVAILABLE);
            case SEND_TOO_LONG_TO_PEER, SEND_TOO_LONG_FROM_PEER -> new Terminate(DDP, UNTAGGED_BUFFER, MESSAGE_TOO_LONG);
            default -> throw new IllegalArgumentException(scenario + " ends without a Terminate");
        };
    }

    // ---- what the child must have seen ----------------------------------------------------------

    private static void checkPeer(VerbsScenario scenario, List<String> said) {
        Peer peer = new Peer(said);
        switch (scenario) {
            case STREAM_ECHO -> {
                return;
            }
            case SEND_RECEIVE -> {
                peer.completion(1).assertReceived(5000, false, 0);
                peer.completion(2).assertReceived(100, true, 0);
                peer.completion(3).assertReceived(0, false, 0);
                PeerCompletion invalidating = peer.completion(4);
                assertEquals(CompletionStatus.SUCCESS, invalidating.status);
                assertEquals(16, invalidating.length);
                assertTrue(invalidating.invalidatedStag != 0, "the child's Receive names the invalidated STag");
                assertEquals(Proof.sha256(Proof.random(5000, SEED + 2)), peer.value("SHA 1"));
                assertEquals(Proof.sha256(Proof.random(100, SEED + 3)), peer.value("SHA 2"));
                assertEquals("false", peer.value("VALID"), "the child's region was invalidated");
                for (long tag : new long[] {101, 102, 103}) {
                    assertEquals(CompletionStatus.SUCCESS, peer.completion(tag).status);
                }
                peer.assertEnded();
            }
            case RDMA_WRITE -> {
                peer.completion(1).assertReceived(32, false, 0);
                assertEquals(peer.value("SHA expected"), peer.value("SHA target"));
                peer.assertEnded();
            }
            case RDMA_READ -> peer.assertEnded();
            case READ_INVALID_STAG, READ_OUT_OF_BOUNDS, READ_WITHOUT_RIGHT, READ_DEREGISTERED, READ_INVALIDATED,
                    WRITE_INVALID_STAG, WRITE_OUT_OF_BOUNDS, WRITE_WITHOUT_RIGHT, WRITE_DEREGISTERED,
                    WRITE_INVALIDATED -> {
                CompletionCause cause = terminateOf(scenario).sent();  // the child refused the access
                peer.assertEnded();
                if (scenario == VerbsScenario.READ_INVALIDATED || scenario == VerbsScenario.WRITE_INVALIDATED) {
                    PeerCompletion invalidated = peer.completion(80);
                    invalidated.assertReceived(0, false, invalidated.invalidatedStag);
                    assertTrue(invalidated.invalidatedStag != 0);
                    assertEquals("false", peer.value("VALID"));
                } else {
                    peer.completion(80).assertFlushed(cause);
                }
                peer.completion(81).assertFlushed(cause);
                if (scenario.isWrite()) {
                    assertEquals("true", peer.value("UNTOUCHED"), "nothing was placed in the child's region");
                }
                if (scenario == VerbsScenario.READ_DEREGISTERED || scenario == VerbsScenario.WRITE_DEREGISTERED) {
                    assertEquals("false", peer.value("VALID"));
                }
            }
            case SEND_NO_RECEIVE -> peer.assertEnded();
            case SEND_TOO_LONG_TO_PEER -> {
                CompletionCause cause = terminateOf(scenario).sent();  // the child finds the Send too long
                PeerCompletion tooLong = peer.completion(5);
                assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, tooLong.status, tooLong.line);
                assertEquals(cause, tooLong.cause, tooLong.line);
                peer.completion(6).assertFlushed(cause);
                peer.assertEnded();
            }
            case SEND_TOO_LONG_FROM_PEER -> {
                CompletionCause cause = terminateOf(scenario).received();
                PeerCompletion send = peer.completion(200);
                assertEquals(CompletionStatus.SUCCESS, send.status, send.line);
                peer.completion(80).assertFlushed(cause);
                peer.completion(81).assertFlushed(cause);
                peer.assertEnded();
            }
            case PEER_CLOSES -> {
                peer.completion(80).assertReceived(0, false, 0);
                peer.completion(81).assertFlushed(CompletionCause.CLOSED);
                peer.assertEnded();
            }
            default -> throw new AssertionError(scenario);
        }
        peer.assertEveryCompletionChecked();
    }

    /** The child's lines of one scenario. */
    private static final class Peer {
        private final List<String> lines;
        private final Set<Long> checked = new LinkedHashSet<>();

        Peer(List<String> lines) {
            this.lines = lines;
            for (String line : lines) {
                assertFalse(line.startsWith("FAIL"), "the child failed: " + line);
            }
            if (lines.stream().anyMatch(line -> line.startsWith("DESCRIPTOR "))) {
                String descriptor = value("DESCRIPTOR");
                assertEquals("SUCCESS", descriptor, "a Send whose bytes left completes successfully");
            }
        }

        /** The value of the only line that starts with the key. */
        String value(String key) {
            String found = null;
            for (String line : lines) {
                if (line.startsWith(key + " ")) {
                    assertEquals(null, found, "the child said " + key + " twice");
                    found = line.substring(key.length() + 1);
                }
            }
            assertNotNull(found, "the child did not report " + key);
            return found;
        }

        /** The only completion the child reported for the tag: each request completes exactly once. */
        PeerCompletion completion(long tag) {
            PeerCompletion found = null;
            for (String line : lines) {
                if (line.startsWith("C ")) {
                    PeerCompletion completion = PeerCompletion.parse(line);
                    if (completion.tag == tag) {
                        assertEquals(null, found, "the child's request " + tag + " completed twice");
                        found = completion;
                    }
                }
            }
            assertNotNull(found, "the child reported no completion for " + tag);
            checked.add(tag);
            return found;
        }

        /** The child saw its connection end (why, its flushed completions say by their cause). */
        void assertEnded() {
            assertFalse(value("ENDED").isBlank(), "the child's connection ended");
        }

        void assertEveryCompletionChecked() {
            for (String line : lines) {
                if (line.startsWith("C ")) {
                    long tag = PeerCompletion.parse(line).tag;
                    if (tag != 100) {  // the descriptor Send, checked by the child itself
                        assertTrue(checked.contains(tag), "an unexpected completion on the child: " + line);
                    }
                }
            }
        }
    }

    private record PeerCompletion(String line, long tag, WorkOpcode opcode, CompletionStatus status, long length,
                                  boolean solicited, int invalidatedStag, CompletionCause cause) {

        /** A completion line of the child's ({@link VerbsPeerProcess}: its cause is origin/layer/type/code). */
        static PeerCompletion parse(String line) {
            String[] f = line.split(" ", 9);
            String[] cause = f[7].split("/");
            return new PeerCompletion(line, Long.parseLong(f[1]), WorkOpcode.valueOf(f[2]),
                    CompletionStatus.valueOf(f[3]), Long.parseLong(f[4]), Boolean.parseBoolean(f[5]),
                    Integer.parseUnsignedInt(f[6], 16), new CompletionCause(CompletionCause.Origin.valueOf(cause[0]),
                    Integer.parseInt(cause[1]), Integer.parseInt(cause[2]), Integer.parseInt(cause[3])));
        }

        void assertReceived(long expectedLength, boolean expectedSolicited, int expectedInvalidated) {
            assertEquals(WorkOpcode.RECEIVE, opcode, line);
            assertEquals(CompletionStatus.SUCCESS, status, line);
            assertEquals(expectedLength, length, line);
            assertEquals(expectedSolicited, solicited, line);
            assertEquals(expectedInvalidated, invalidatedStag, line);
        }

        void assertFlushed(CompletionCause expected) {
            assertEquals(CompletionStatus.FLUSHED, status, line);
            assertEquals(expected, cause, line);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static void assertSuccess(WorkCompletion completion) {
        assertEquals(CompletionStatus.SUCCESS, completion.status(), completion.toString());
    }

    private static void assertFlushed(WorkCompletion completion, CompletionCause cause) {
        assertEquals(CompletionStatus.FLUSHED, completion.status(), completion.toString());
        assertEquals(cause, completion.cause(), completion.toString());
    }

    /** This side's connection ended (why, its flushed completions say by their cause). */
    private static void assertEnded(Client client) throws InterruptedException {
        Proof.awaitEnded(client.verbs, WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** This JVM's end of one scenario's connection: the MPA initiator, its Receives posted at setup. */
    private static final class Client implements AutoCloseable {
        final ExtendedSocket socket = new ExtendedSocket();
        IwarpConnection verbs;
        MemoryRegion inbox;
        /** A region of this side, advertised to the child in SEND_RECEIVE. */
        MemoryRegion mine;
        RemoteBuffer peerRegion;
        private final Set<Long> posted = new LinkedHashSet<>();
        private final Map<Long, WorkCompletion> completed = new HashMap<>();

        static Client open(int port, VerbsScenario scenario) throws Exception {
            Client client = new Client();
            try {
                client.connect(port, scenario);
                return client;
            } catch (Exception | Error e) {
                client.close();
                throw e;
            }
        }

        private void connect(int port, VerbsScenario scenario) throws Exception {
            socket.setOption(IwarpOptions.IWARP_MODE, true);
            socket.setOption(IwarpOptions.STREAMS, false);
            socket.setReceiveBufferSize(VerbsScenario.RECEIVE_BUFFER);
            socket.setOption(IwarpOptions.SETUP, connection -> {
                inbox = connection.register(ByteBuffer.allocateDirect(4 * 8192), EnumSet.of(Access.LOCAL_WRITE));
                if (scenario.peerSendsDescriptor) {
                    postAtSetup(connection, DESCRIPTOR, 0, 16);
                }
                switch (scenario) {
                    case SEND_RECEIVE -> {
                        mine = connection.register(ByteBuffer.allocateDirect(REGION), REMOTE_RW);
                        for (int i = 1; i <= 3; i++) {
                            postAtSetup(connection, DESCRIPTOR + i, i * 8192, 8192);
                        }
                    }
                    case RDMA_WRITE, RDMA_READ -> {
                    }
                    case SEND_TOO_LONG_FROM_PEER -> {
                        postAtSetup(connection, FLUSH_A, 1024, 100);
                        postAtSetup(connection, FLUSH_B, 2048, 100);
                    }
                    case PEER_CLOSES -> {
                        for (int i = 0; i < 8; i++) {
                            postAtSetup(connection, FLUSH_A + i, 1024 + i * 64, 64);
                        }
                    }
                    default -> {
                        postAtSetup(connection, FLUSH_A, 1024, 64);
                        postAtSetup(connection, FLUSH_B, 2048, 64);
                    }
                }
            });
            socket.connect(new InetSocketAddress(Proof.LOOPBACK, port), 10_000);
            verbs = socket.iwarp();
            if (scenario.peerSendsDescriptor) {
                WorkCompletion descriptor = expect(DESCRIPTOR);
                assertSuccess(descriptor);
                assertEquals(RemoteBuffer.ENCODED_LENGTH, descriptor.byteLength());
                peerRegion = RemoteBuffer.readFrom(inbox.buffer());
            }
        }

        private void postAtSetup(IwarpConnection connection, long tag, int offset, int length) throws IOException {
            posted.add(tag);
            connection.post(new ReceiveRequest().tag(tag).scatter(inbox.slice(offset, length)));
        }

        void post(WorkRequest request) throws IOException {
            assertTrue(posted.add(request.tag()), "tag " + request.tag() + " used twice");
            verbs.post(request);
        }

        /** A request whose post failed: no completion is due. */
        void forget(long tag) {
            posted.remove(tag);
        }

        /** The completion of the request with this tag, which must come exactly once. */
        WorkCompletion expect(long tag) throws InterruptedException {
            assertTrue(posted.contains(tag), "nothing was posted with tag " + tag);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (!completed.containsKey(tag)) {
                WorkCompletion next = verbs.completions().take(Math.max(1, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
                if (next == null) {
                    throw new AssertionError("request " + tag + " did not complete within " + WAIT_SECONDS
                            + " s; completed so far: " + completed.values() + "\n" + Proof.threadDump());
                }
                assertTrue(posted.contains(next.tag()), "a completion nobody posted: " + next);
                WorkCompletion earlier = completed.put(next.tag(), next);
                assertEquals(null, earlier, "request " + next.tag() + " completed twice: " + earlier + ", " + next);
            }
            return completed.get(tag);
        }

        /** Every posted request completed, once; nothing more comes. */
        void assertAllAccountedFor() throws InterruptedException {
            for (long tag : posted) {
                expect(tag);
            }
            WorkCompletion extra = verbs.completions().take(100, TimeUnit.MILLISECONDS);
            assertEquals(null, extra, "a completion after every request had completed");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The control connection to the child: commands out, the child's lines back. */
    private static final class Control implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;
        private final PrintWriter out;
        private final List<String> transcript = new ArrayList<>();
        private VerbsScenario scenario;
        private boolean done;

        private Control(Socket socket) throws IOException {
            this.socket = socket;
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(40));
            this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            this.out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        /** Connects once the child listens; fails if the child ends first. */
        static Control connect(int port, CompletableFuture<Integer> exited, Supplier<String> childSaid)
                throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try {
                    return new Control(new Socket(Proof.LOOPBACK, port));
                } catch (IOException notYet) {
                    if (exited.isDone()) {
                        throw new AssertionError("the child ended before it listened:\n" + childSaid.get());
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("the child did not open its control port within 60 s", notYet);
                    }
                    Thread.sleep(50);  // a polling interval until the child listens
                }
            }
        }

        void begin(VerbsScenario next) {
            scenario = next;
            transcript.clear();
            done = false;
        }

        void send(String command) {
            out.println(command);
        }

        /** Reads the child's lines until one starts with the prefix, and returns it. */
        String await(String prefix) throws IOException {
            while (true) {
                String line = next();
                if (line.startsWith(prefix)) {
                    return line;
                }
                if (line.startsWith("FAIL") || line.startsWith("DONE")) {
                    throw new AssertionError("waiting for " + prefix + ", the child said: " + transcript);
                }
            }
        }

        /** Reads the child's lines until it finishes the scenario; returns all its lines of it. */
        List<String> awaitDone() throws IOException {
            while (!done) {
                next();
            }
            return List.copyOf(transcript);
        }

        boolean done() {
            return done;
        }

        List<String> transcript() {
            return List.copyOf(transcript);
        }

        private String next() throws IOException {
            String line;
            try {
                line = in.readLine();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the child said nothing for 40 s in " + scenario + "; so far: " + transcript
                        + "\n" + Proof.threadDump());
            }
            if (line == null) {
                throw new IOException("the child closed the control connection; it said: " + transcript);
            }
            transcript.add(line);
            if (line.equals("DONE " + scenario)) {
                done = true;
            }
            return line;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
