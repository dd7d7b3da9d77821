package io.extsock.core.engine;

import io.extsock.IwarpNegotiationException;
import io.extsock.IwarpNegotiationException.Reason;
import io.extsock.core.ddp.DdpConstants;
import io.extsock.core.events.ExtsockEvents;
import io.extsock.core.mpa.FpduFramer;
import io.extsock.core.mpa.GatherWrite;
import io.extsock.core.mpa.MpaFailure;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.core.terminate.TerminateCause;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * How an MPA setup that did not agree ends: the exception that names why, by its reason, and,
 * on the initiator, the Terminate RFC 6581 section 8 asks for before the close.
 */
final class MpaSetupFailure {

    private MpaSetupFailure() {
    }

    /** Sends one Terminate FPDU right after setup failed (no FPDU came before it). */
    static void sendTerminate(SocketChannel channel, TerminateCause cause, boolean crc, boolean markers) {
        try {
            MessageWriter writer = new MessageWriter(new FpduFramer(crc, markers),
                    FpduFramer.maxUlpduLength(1448, markers));
            GatherWrite gather = new GatherWrite(8, 256);
            TerminateHeader terminate = new TerminateHeader().reset(cause);
            writer.startTerminate(DdpConstants.INITIAL_MSN, terminate);
            writer.writeTo(gather);
            channel.write(gather.buffers(), 0, gather.count());
            String peer = ExtsockEvents.address(channel.getRemoteAddress());
            String detail = "MPA setup failed: " + cause.description();
            System.Logger log = System.getLogger(MpaHandshake.class.getName());  // the handshake's log
            if (log.isLoggable(System.Logger.Level.DEBUG)) {
                log.log(System.Logger.Level.DEBUG, "Terminate sent to " + peer + ": layer "
                        + ExtsockEvents.layerName(terminate.layer()) + ", type " + terminate.errorType() + ", code 0x"
                        + Integer.toHexString(terminate.errorCode()) + " (" + cause.description() + "): " + detail);
            }
            ExtsockEvents.terminateSent(peer, terminate, detail);
        } catch (IOException | RuntimeException e) {
            // The connection is being abandoned anyway; the negotiation failure is what matters.
        }
    }

    /**
     * The exception a failed setup throws, its reason from the failure's.
     *
     * @param what which frame failed, for the message ("the responder's Reply")
     */
    static IwarpNegotiationException exception(MpaFailure failure, String what) {
        Reason reason = switch (failure.reason()) {
            case PEER_REJECTED -> Reason.REJECTED;
            case NOT_MPA_PEER, UNEXPECTED_FRAME -> Reason.NOT_AN_IWARP_PEER;
            case MALFORMED -> Reason.MALFORMED;
            default -> Reason.INCOMPATIBLE;
        };
        byte[] peerData = ExtsockHello.applicationData(failure.peerPrivateData().toByteArray());
        return new IwarpNegotiationException(reason, failure.detail() + " (in " + what + ")", peerData);
    }
}
