package io.extsock.core.oracle;

import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.ddp.DdpHeaderEncoder;
import io.extsock.core.ddp.MessageSequenceNumbers;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaFailure;
import io.extsock.core.mpa.MpaFailureReason;
import io.extsock.core.mpa.MpaFrame;
import io.extsock.core.mpa.MpaFrameType;
import io.extsock.core.mpa.MpaNegotiation;
import io.extsock.core.mpa.MpaOutcome;
import io.extsock.core.mpa.MpaPreferences;
import io.extsock.core.mpa.PrivateData;
import io.extsock.core.mpa.ResponderDecision;
import io.extsock.core.mpa.RtrKind;
import io.extsock.core.rdmap.RdmapConstants;
import io.extsock.core.rdmap.RdmapOpcode;
import io.extsock.core.rdmap.ReadRequestHeader;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.TerminateCause;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Writes our codecs' output over a real loopback TCP connection for Wireshark to judge: an
 * MPA initiator and responder in one process, on {@code 127.0.0.1:<port>}, running one
 * scenario's traffic. Each side decodes what it receives with our own codecs and checks it,
 * so the program fails (non-zero exit) if our reader disagrees with our writer.
 *
 * <p>Usage: {@code WireFixture <port> <scenario>}, scenario one of {@link Scenario}.
 */
public final class WireFixture {

    /** Connection settings and the traffic each exercises. */
    public enum Scenario {
        /** RFC 5044 setup, CRC. */
        REV1_CRC(1, true, false),
        /** RFC 5044 setup, no CRC. */
        REV1_NO_CRC(1, false, false),
        /** RFC 6581 enhanced setup, peer-to-peer with a zero-length Write RTR, CRC. */
        REV2_CRC(2, true, false),
        /** RFC 6581 enhanced setup, no CRC. */
        REV2_NO_CRC(2, false, false),
        /** Markers in both directions (both ends set M), CRC, one FPDU per TCP segment. */
        MARKERS(1, true, true),
        /** The responder rejects the connection: a Reply with R set and private data saying why. */
        REJECT(2, true, false);

        final int revision;
        final boolean crc;
        final boolean markers;

        Scenario(int revision, boolean crc, boolean markers) {
            this.revision = revision;
            this.crc = crc;
            this.markers = markers;
        }

        MpaPreferences preferences() {
            return MpaPreferences.builder()
                    .revision(revision)
                    .enhanced(revision == 2)
                    .peerToPeer(revision == 2)
                    .rtrKinds(Set.of(RtrKind.ZERO_LENGTH_WRITE))
                    .requestCrc(crc)
                    .requireMarkersOnReceive(markers)
                    .build();
        }
    }

    private static final int MAX_FPDU_SIZE = 1448;
    private static final int SINK_STAG = 0x0000B2A5;
    private static final int SOURCE_STAG = 0x0000C3A6;
    private static final int WRITE_STAG = 0x0000A1A7;
    private static final int READ_SIZE = 3000;
    private static final String REJECTION = "no iWARP service for you";

    private WireFixture() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Scenario scenario = Scenario.valueOf(args[1]);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (ServerSocket server = new ServerSocket(port, 1, loopback)) {
            Future<Void> responder = executor.submit(() -> {
                respond(server.accept(), scenario);
                return null;
            });
            initiate(new Socket(loopback, port), scenario);
            responder.get(60, TimeUnit.SECONDS);
        } finally {
            executor.shutdownNow();
        }
        System.out.println("wire fixture " + scenario + ": both ends decoded what they received");
    }

    private static void initiate(Socket socket, Scenario scenario) throws Exception {
        FixtureEndpoint end = new FixtureEndpoint(socket);
        MpaPreferences preferences = scenario.preferences();
        MpaFrame request = MpaNegotiation.request(preferences);
        end.sendFrame(request);
        MpaFrame reply = end.receiveFrame(MpaFrameType.REPLY);
        MpaOutcome outcome = MpaNegotiation.complete(preferences, request, reply);
        if (scenario == Scenario.REJECT) {
            check(outcome instanceof MpaFailure failure && failure.reason() == MpaFailureReason.PEER_REJECTED
                    && REJECTION.equals(new String(failure.peerPrivateData().toByteArray(), StandardCharsets.US_ASCII)),
                    "initiator expected a rejection saying why, got " + outcome);
            end.close();
            return;
        }
        MpaAgreement agreement = agreed(outcome);
        end.fullOperation(agreement, MAX_FPDU_SIZE, scenario.markers);
        MessageSequenceNumbers msns = new MessageSequenceNumbers();

        if (agreement.sendsRtr()) {
            // RFC 6581 section 4: the ready-to-receive, a zero-length RDMA Write (STag 0, TO 0).
            end.writer().startWrite(0, 0, new ByteBuffer[0], 0, 0);
            end.flushMessage();
        }
        send(end, RdmapOpcode.SEND, 0, msns, 100);
        send(end, RdmapOpcode.SEND, 0, msns, 5000);                       // multi-segment
        send(end, RdmapOpcode.SEND_WITH_SOLICITED_EVENT, 0, msns, 10);
        send(end, RdmapOpcode.SEND_WITH_INVALIDATE, 0x1234A8, msns, 20);
        send(end, RdmapOpcode.SEND_WITH_SOLICITED_EVENT_AND_INVALIDATE, 0x5678A9, msns, 30);
        if (scenario.markers) {
            for (int size : new int[] {1000, 1200, 1380, 700, 1421, 490, 1010}) {
                send(end, RdmapOpcode.SEND, 0, msns, size);               // markers all over the FPDUs
            }
        }
        end.writer().startWrite(WRITE_STAG, 0, payload(4000), 0, 1);      // multi-segment Write
        end.flushMessage();
        ReadRequestHeader read = new ReadRequestHeader().set(SINK_STAG, 0, READ_SIZE, SOURCE_STAG, 0);
        end.writer().startReadRequest(msns.assign(DdpConstants.QN_READ_REQUEST), read);
        end.flushMessage();

        // The responder answers the Read and sends one Send (and, after RFC 6581 setup, a Terminate).
        int expected = scenario.revision == 2 ? 3 : 2;
        end.awaitMessages(expected);
        List<RecordingSink.Received> got = end.received.messages;
        check(got.get(0).opcode() == RdmapOpcode.RDMA_READ_RESPONSE && got.get(0).length() == READ_SIZE,
                "initiator expected a Read Response of " + READ_SIZE + " octets, got " + got.get(0));
        check(got.get(1).opcode() == RdmapOpcode.SEND && got.get(1).length() == 64,
                "initiator expected a 64-octet Send, got " + got.get(1));
        if (scenario.revision == 2) {
            check(got.get(2).cause() == TerminateCause.RDMAP_ACCESS_RIGHTS, "expected the responder's Terminate");
        } else {
            // Terminate with a copy of an (untagged) DDP header: a Send that found no receive buffer.
            TerminateHeader terminate = new TerminateHeader().reset(TerminateCause.DDP_UNTAGGED_NO_BUFFER);
            ByteBuffer failedSend = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + 64);
            DdpHeaderEncoder.putUntagged(failedSend, true, RdmapConstants.controlField(RdmapOpcode.SEND), 0,
                    DdpConstants.QN_SEND, 2, 0);
            terminate.includeTerminatedSegment(failedSend, 0, failedSend.capacity());
            end.writer().startTerminate(msns.assign(DdpConstants.QN_TERMINATE), terminate);
            end.flushMessage();
        }
        end.closeAfterPeer();
    }

    private static void respond(Socket socket, Scenario scenario) throws Exception {
        FixtureEndpoint end = new FixtureEndpoint(socket);
        MpaPreferences preferences = scenario.preferences();
        MpaFrame request = end.receiveFrame(MpaFrameType.REQUEST);
        if (scenario == Scenario.REJECT) {
            end.sendFrame(MpaNegotiation.rejection(preferences, request,
                    PrivateData.of(REJECTION.getBytes(StandardCharsets.US_ASCII))));
            end.closeAfterPeer();
            return;
        }
        ResponderDecision decision = MpaNegotiation.respond(preferences, request);
        end.sendFrame(decision.reply());
        MpaAgreement agreement = agreed(decision.outcome());
        end.fullOperation(agreement, MAX_FPDU_SIZE, scenario.markers);
        MessageSequenceNumbers msns = new MessageSequenceNumbers();

        int rtr = agreement.rtr().isPresent() ? 1 : 0;
        int sends = scenario.markers ? 12 : 5;
        end.awaitMessages(rtr + sends + 2);  // the RTR, the Sends, the Write, the Read Request
        List<RecordingSink.Received> got = end.received.messages;
        RecordingSink.Received readRequest = got.get(rtr + sends + 1);
        check(readRequest.opcode() == RdmapOpcode.RDMA_READ_REQUEST, "responder expected a Read Request, got "
                + readRequest);
        check(got.get(rtr + 1).length() == 5000, "responder expected a 5000-octet Send, got " + got.get(rtr + 1));
        ReadRequestHeader read = readRequest.readRequest();
        end.writer().startReadResponse(read.sinkStag(), read.sinkTaggedOffset(), payload((int) read.readSize()), 0, 1);
        end.flushMessage();
        send(end, RdmapOpcode.SEND, 0, msns, 64);
        if (scenario.revision == 2) {
            // Terminate with copies of the DDP header and the RDMAP Read Request header.
            TerminateHeader terminate = new TerminateHeader().reset(TerminateCause.RDMAP_ACCESS_RIGHTS);
            ByteBuffer failedRead = ByteBuffer.allocate(DdpConstants.UNTAGGED_HEADER_LENGTH + 28);
            DdpHeaderEncoder.putUntagged(failedRead, true, RdmapConstants.controlField(RdmapOpcode.RDMA_READ_REQUEST),
                    0, DdpConstants.QN_READ_REQUEST, 1, 0);
            read.put(failedRead);
            terminate.includeTerminatedSegment(failedRead, 0, failedRead.capacity());
            terminate.includeTerminatedReadRequest(read);
            end.writer().startTerminate(msns.assign(DdpConstants.QN_TERMINATE), terminate);
            end.flushMessage();
        } else {
            end.awaitMessages(rtr + sends + 3);
            check(got.get(rtr + sends + 2).cause() == TerminateCause.DDP_UNTAGGED_NO_BUFFER,
                    "responder expected the initiator's Terminate, got " + got.get(rtr + sends + 2));
        }
        end.closeAfterPeer();
    }

    private static void send(FixtureEndpoint end, RdmapOpcode variant, int invalidateStag,
                             MessageSequenceNumbers msns, int size) throws IOException, InterruptedException {
        end.writer().startSend(variant, invalidateStag, msns.assign(DdpConstants.QN_SEND), payload(size), 0, 1);
        end.flushMessage();
    }

    private static ByteBuffer[] payload(int size) {
        ByteBuffer buffer = ByteBuffer.allocate(size);
        for (int i = 0; i < size; i++) {
            buffer.put(i, (byte) (i * 31 + 7));
        }
        return new ByteBuffer[] {buffer};
    }

    private static MpaAgreement agreed(MpaOutcome outcome) {
        if (outcome instanceof MpaAgreement agreement) {
            return agreement;
        }
        throw new IllegalStateException("MPA negotiation failed: " + outcome);
    }

    private static void check(boolean condition, String failure) {
        if (!condition) {
            throw new IllegalStateException(failure);
        }
    }
}
