package io.extsock.core.verbs;

import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaRole;
import io.extsock.core.rdmap.MessageWriter;
import io.extsock.core.rdmap.TerminateHeader;
import io.extsock.verbs.WorkOpcode;

/**
 * Which message goes out next (as siw's {@code siw_activate_tx} picks it): our Terminate
 * before anything else, then the RTR, then Read Responses and send-queue messages taking
 * turns (RFC 5040 section 5.2); nothing but a Terminate before a responder may send; and what
 * the message under way leaves behind once framed. Every method runs under the queue pair's
 * lock ({@link WorkQueues}).
 */
final class TransmitOrder {

    private final SendQueue sends;
    private final InboundReads inboundReads;
    /** Our Terminate, from when it is queued until its last octet is in the gathering write. */
    private TerminateHeader terminateToSend;
    private boolean terminateFramed;
    private boolean terminateInGather;
    /** RFC 5044 section 7.1: closed on a responder until the initiator's first FPDU arrives. */
    private boolean gateOpen;
    /** RFC 6581: the RTR waits to be framed (also read without the lock, as a hint). */
    private boolean rtrToSend;
    private boolean preferReadResponse;

    TransmitOrder(MpaAgreement agreement, SendQueue sends, InboundReads inboundReads) {
        this.sends = sends;
        this.inboundReads = inboundReads;
        // RFC 6581 section 4: in peer-to-peer mode the initiator's first FPDU is the RTR.
        this.gateOpen = agreement.role() == MpaRole.INITIATOR || !agreement.waitsForPeerFirstFpdu();
        this.rtrToSend = agreement.sendsRtr();
    }

    /** Our Terminate, to go before anything else. */
    void queueTerminate(TerminateHeader terminate) {
        terminateToSend = terminate;
    }

    /** A segment arrived: a responder may send from now on. Whether this opened the gate. */
    boolean segmentArrived() {
        if (gateOpen) {
            return false;
        }
        gateOpen = true;
        return true;
    }

    /** Whether there is anything to frame now, the message {@code writer} has under way included. */
    boolean hasWork(MessageWriter writer, boolean connected) {
        if (writer.inProgress() || terminateToSend != null && !terminateFramed) {
            return true;
        }
        if (!connected || !gateOpen) {
            return false;
        }
        return rtrToSend || !inboundReads.isEmpty() || sends.readyToFrame() != null;
    }

    /** Whether the RTR is all that is queued to send (a message, a response or a Terminate is not). */
    boolean onlyReadyToReceivePending(MessageWriter writer) {
        return rtrToSend && !writer.inProgress() && terminateToSend == null && inboundReads.isEmpty()
                && sends.allFramed();
    }

    /** A hint, read without the lock. */
    boolean readyToReceivePending() {
        return rtrToSend;
    }

    /**
     * Picks the next message and has {@code tx} start it, in the turn of the lock that takes it
     * off its queue: a message is never out of its queue without being under way.
     *
     * @return whether a message was started
     */
    boolean startNext(TransmitSide tx, boolean connected) {
        if (terminateToSend != null && !terminateFramed) {
            terminateFramed = true;
            tx.startTerminate(terminateToSend);
            return true;
        }
        if (!connected || !gateOpen) {
            return false;
        }
        if (rtrToSend) {
            rtrToSend = false;
            tx.startReadyToReceive();
            return true;
        }
        SendWork next = sends.readyToFrame();
        if (!inboundReads.isEmpty() && (preferReadResponse || next == null)) {
            preferReadResponse = false;
            tx.startReadResponse(inboundReads.poll());
            return true;
        }
        if (next == null) {
            return false;
        }
        preferReadResponse = true;
        sends.framing(next);
        if (!tx.startSend(next)) {
            sends.deliverCompletions();  // refused before any of it went out: the next message's turn
        }
        return true;
    }

    /**
     * The message under way has its last segment in the gathering write: a Read Response
     * ({@code response}), a send-queue request ({@code request}), or neither: the Terminate or
     * the RTR. A Send or Write completes once the write went out ({@link SendQueue#gatherDone}).
     */
    void messageFramed(InboundRead response, SendWork request, boolean connected) {
        if (response != null) {
            responseDone(response);
        } else if (request != null) {
            if (request.opcode != WorkOpcode.RDMA_READ) {
                request.releaseFileRegionsAfterWrite();
                if (connected) {
                    sends.inGather(request);
                }
            }
        } else if (terminateFramed && terminateToSend != null) {
            terminateInGather = true;
            terminateToSend = null;
        }
    }

    /** The message under way is dropped (its source failed): what it holds is let go with the write. */
    void messageDropped(InboundRead response, SendWork request) {
        if (request != null && request.opcode != WorkOpcode.RDMA_READ) {
            request.releaseFileRegionsAfterWrite();
        }
        if (response != null) {
            responseDone(response);
        }
    }

    /** A Read Response was framed or dropped: its source's hold goes with the write, its IRD slot is free. */
    private void responseDone(InboundRead response) {
        if (response.source != null) {
            response.lentViews.releaseHoldAfterWrite(response.source);
        }
        inboundReads.release(response);
    }

    /** The gathering write went out: whether our Terminate was in it (once). */
    boolean terminateWentOut() {
        boolean sent = terminateInGather;
        terminateInGather = false;
        return sent;
    }
}
