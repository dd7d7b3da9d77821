package io.extsock.testkit.wire;

import static io.extsock.testkit.wire.IwarpBytes.C;
import static io.extsock.testkit.wire.IwarpBytes.H;
import static io.extsock.testkit.wire.IwarpBytes.M;
import static io.extsock.testkit.wire.IwarpBytes.payload;
import static io.extsock.testkit.wire.IwarpBytes.readRequest;
import static io.extsock.testkit.wire.IwarpBytes.send;
import static io.extsock.testkit.wire.IwarpBytes.tagged;
import static io.extsock.testkit.wire.IwarpBytes.terminate;
import static io.extsock.testkit.wire.IwarpBytes.untagged;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * iWARP conversations written octet by octet, one TCP connection each, in order, so that
 * tshark's {@code tcp.stream} of each is its ordinal. {@link Clean} ones must pass the judge;
 * each {@link Faulty} one must fail it with the finding it names.
 *
 * <p>Run as its own process (the judge captures a command): {@code HandmadeTraffic PORT clean|faulty}.
 */
final class HandmadeTraffic {

    interface Script {
        void play(RawConversation c) throws IOException;
    }

    /** Conformant conversations. */
    enum Clean {
        /** Rev 1 with CRC: Sends, a Send in 3 segments in one write, Write, Read, SE, Invalidate, Terminate. */
        REV1_CRC(c -> {
            c.handshake(C, 1, "judge rev1".getBytes(StandardCharsets.US_ASCII), C, 1, new byte[0]);
            c.initiator.send(send(1, 0, true, payload(37, 1)));
            c.initiator.send(send(2, 0, false, payload(100, 2)), send(2, 100, false, payload(100, 3)),
                    send(2, 200, true, payload(51, 4)));
            c.initiator.send(tagged(IwarpBytes.WRITE, true, 0x1234abcd, 0x1000, payload(64, 5)));
            c.initiator.send(readRequest(1, 0xcafe0001, 0x2000, 300, 0x5eed0002, 0x8000));
            c.responder.send(tagged(IwarpBytes.READ_RESPONSE, false, 0xcafe0001, 0x2000, payload(200, 6)));
            c.responder.send(tagged(IwarpBytes.READ_RESPONSE, true, 0xcafe0001, 0x2000 + 200, payload(100, 7)));
            c.responder.send(untagged(IwarpBytes.SEND_SE, true, 0, 0, 1, 0, payload(20, 8)));
            c.initiator.send(untagged(IwarpBytes.SEND_INVALIDATE, true, 0x77, 0, 3, 0, payload(12, 9)));
            c.responder.send(terminate(1, 0, 2, 0x06));
        }),
        /** Rev 1 without CRC (the field then goes as zero), a multi-segment Write split over writes. */
        REV1_NO_CRC(c -> {
            c.handshake(0);
            c.initiator.send(send(1, 0, true, payload(100, 11)));
            c.initiator.send(tagged(IwarpBytes.WRITE, false, 0x100, 0, payload(40, 12)));
            c.initiator.send(tagged(IwarpBytes.WRITE, true, 0x100, 40, payload(40, 13)));
            c.responder.send(send(1, 0, true, payload(3, 14)));
            c.responder.send(readRequest(1, 0x200, 0, 16, 0x300, 0x40));
            c.initiator.send(tagged(IwarpBytes.READ_RESPONSE, true, 0x200, 0, payload(16, 15)));
        }),
        /** CRC asked for by the responder only: RFC 5044 uses it when either side asks. */
        CRC_FROM_RESPONDER_ONLY(c -> {
            c.handshake(0, 1, new byte[0], C, 1, new byte[0]);
            c.initiator.send(send(1, 0, true, payload(9, 21)));
            c.responder.send(send(1, 0, true, payload(10, 22)));
        }),
        /** RFC 6581: revision 2, H, IRD/ORD with P2P and RTR bits, then the zero-length Write RTR. */
        REV2_ENHANCED(c -> {
            c.handshake(C | H, 2, IwarpBytes.enhancedPrivateData(0x8010, 0xC010, new byte[] {1, 2}), C | H, 2,
                    IwarpBytes.enhancedPrivateData(0x8008, 0x8008, new byte[0]));
            c.initiator.send(tagged(IwarpBytes.WRITE, true, 0, 0, new byte[0]));
            c.responder.send(send(1, 0, true, payload(40, 31)));
            c.initiator.send(readRequest(1, 0xcafe0011, 0, 64, 0xdead0000, 0x10));
            c.responder.send(tagged(IwarpBytes.READ_RESPONSE, true, 0xcafe0011, 0, payload(64, 32)));
        }),
        /**
         * Markers and CRC both ways, one FPDU per write: markers inside FPDUs, an FPDU that ends
         * on a 512-octet boundary (so the next starts with a marker), a marker right before a
         * CRC, and a Read Response in two 1500-octet segments.
         */
        MARKERS(c -> {
            c.handshake(M | C, 1, new byte[0], M | C, 1, new byte[0]);
            c.initiator.send(send(1, 0, true, payload(1000, 41)));  // a leading marker and one inside
            c.initiator.send(send(2, 0, false, payload(700, 42)));
            c.initiator.send(send(2, 700, true, payload(300, 43)));
            // An FPDU that ends on a 512-octet boundary: the next one starts with a marker.
            c.initiator.send(send(3, 0, true, payload(payloadThat(c.initiator,
                    (start, size) -> (start + size) % 512 == 0), 44)));
            c.initiator.send(send(4, 0, true, payload(30, 45)));
            // An FPDU whose CRC a marker precedes.
            c.initiator.send(send(5, 0, true, payload(payloadThat(c.initiator,
                    (start, size) -> (start + size - 8) % 512 == 0), 46)));
            c.initiator.send(readRequest(1, 0xcafe0021, 0x4000, 3000, 0x5eed0022, 0));
            c.responder.send(tagged(IwarpBytes.READ_RESPONSE, false, 0xcafe0021, 0x4000, payload(1500, 47)));
            c.responder.send(tagged(IwarpBytes.READ_RESPONSE, true, 0xcafe0021, 0x4000 + 1500, payload(1500, 48)));
        });

        final Script script;

        Clean(Script script) {
            this.script = script;
        }
    }

    /** One breach per conversation, and the finding the judge must report for it. */
    enum Faulty {
        BAD_CRC(Finding.Kind.BAD_CRC, "bad MPA CRC", c -> {
            c.handshake(C);
            c.initiator.sendFaulty(send(1, 0, true, payload(25, 1)), MpaSender.Fault.BAD_CRC);
        }),
        TRUNCATED_DDP_HEADER(Finding.Kind.MALFORMED, "IWARP_DDP_RDMAP", c -> {
            c.handshake(C);
            c.initiator.send(Arrays.copyOf(send(1, 0, true, new byte[0]), 6));
        }),
        MSN_GAP(Finding.Kind.LINT, "expected a new message with MSN 2", c -> {
            c.handshake(C);
            c.initiator.send(send(1, 0, true, payload(8, 2)));
            c.initiator.send(send(3, 0, true, payload(8, 3)));
        }),
        READ_RESPONSE_MISMATCH(Finding.Kind.LINT, "wants sink STag 0xcafe0031", c -> {
            c.handshake(C);
            c.initiator.send(readRequest(1, 0xcafe0031, 0, 100, 0x1, 0));
            c.responder.send(tagged(IwarpBytes.READ_RESPONSE, true, 0xcafe0032, 0, payload(100, 4)));
        }),
        WRONG_QUEUE(Finding.Kind.LINT, "Send on QN 1", c -> {
            c.handshake(C);
            c.initiator.send(untagged(IwarpBytes.SEND, true, 0, 1, 1, 0, payload(8, 5)));
        }),
        NONZERO_PAD(Finding.Kind.LINT, "non-zero pad", c -> {
            c.handshake(C);
            c.initiator.sendFaulty(send(1, 0, true, payload(5, 6)), MpaSender.Fault.NONZERO_PAD);
        }),
        WRONG_FPDUPTR(Finding.Kind.LINT, "FPDUPTR", c -> {
            c.handshake(M | C, 1, new byte[0], M | C, 1, new byte[0]);
            c.initiator.sendFaulty(send(1, 0, true, payload(1200, 7)), MpaSender.Fault.WRONG_FPDUPTR);
        }),
        /** A length field that promises more than ever comes: Wireshark waits, and decodes nothing more. */
        UNDECODABLE_OCTETS(Finding.Kind.UNDECODED, "not decoded as iWARP", c -> {
            c.handshake(C);
            c.initiator.send(send(1, 0, true, payload(8, 8)));
            c.initiator.raw(new byte[] {0x10, 0x00, 0x41, 0x43, 1, 2, 3, 4, 5, 6, 7, 8});
        }),
        NO_HANDSHAKE(Finding.Kind.NO_HANDSHAKE, "no MPA Request", c -> {
            c.initiator.negotiated(false, false);
            c.initiator.send(send(1, 0, true, payload(30, 9)));
        }),
        RFC7306_OPCODE(Finding.Kind.LINT, "not in RFC 5040", c -> {
            c.handshake(C);
            c.initiator.send(untagged(IwarpBytes.ATOMIC_REQUEST, true, 0, 1, 1, 0, payload(36, 10)));
        }),
        MPA_REVISION_3(Finding.Kind.EXPERT_WARNING, "Rev field is NOT set to one", c -> {
            c.handshake(C, 3, new byte[0], C, 3, new byte[0]);
            c.initiator.send(send(1, 0, true, payload(8, 11)));
        });

        final Finding.Kind kind;
        final String message;
        final Script script;

        Faulty(Finding.Kind kind, String message, Script script) {
            this.kind = kind;
            this.message = message;
            this.script = script;
        }
    }

    interface Layout {
        boolean wanted(long start, int size);
    }

    /** The smallest Send payload whose FPDU, sent next, has the layout wanted. */
    static int payloadThat(MpaSender sender, Layout layout) {
        for (int payload = 1; payload < 2048; payload++) {
            if (layout.wanted(sender.position(), sender.sizeHere(18 + payload))) {
                return payload;
            }
        }
        throw new IllegalStateException("no payload gives the layout");
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        if (!args[1].equals("clean") && !args[1].equals("faulty")) {
            System.err.println("usage: HandmadeTraffic PORT clean|faulty");
            System.exit(2);
        }
        boolean clean = args[1].equals("clean");
        try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            Script[] scripts = clean ? Arrays.stream(Clean.values()).map(s -> s.script).toArray(Script[]::new)
                    : Arrays.stream(Faulty.values()).map(s -> s.script).toArray(Script[]::new);
            for (Script script : scripts) {
                try (RawConversation conversation = RawConversation.open(server)) {
                    script.play(conversation);
                }
                Thread.sleep(50);  // keeps each connection's frames together in the capture
            }
        }
        System.out.println("handmade traffic sent: " + args[1]);
    }
}
