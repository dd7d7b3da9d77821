package io.extsock.core.engine;

import io.extsock.IwarpNegotiationException.Reason;
import io.extsock.IwarpNegotiationException;
import io.extsock.core.mpa.MpaAgreement;
import io.extsock.core.mpa.MpaFailure;
import io.extsock.core.mpa.MpaFrame;
import io.extsock.core.mpa.MpaFrameParser;
import io.extsock.core.mpa.MpaFrameType;
import io.extsock.core.mpa.MpaNegotiation;
import io.extsock.core.mpa.MpaOutcome;
import io.extsock.core.mpa.MpaPreferences;
import io.extsock.core.mpa.MpaSetupException;
import io.extsock.core.mpa.Printable;
import io.extsock.core.mpa.ResponderDecision;
import io.extsock.spi.NotAnIwarpPeerException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * MPA connection setup (RFC 5044 section 7.1, RFC 6581) on the thread that switches a socket
 * to IWARP_MODE: a platform thread over the non-blocking channel, waiting in the Selector its
 * connection then keeps for its application's waits; a virtual thread over the channel still in
 * blocking mode. Bounded by the MPA timeout. A responder can also run over a non-blocking
 * channel, a selector's thread feeding it ({@link #nonBlockingResponder}): so are connections
 * negotiated ahead of {@code accept}.
 *
 * <p>What arrives before the peer's MPA frame is stream data the peer wrote before it switched:
 * it is handed back to stay readable first. What arrives after the frame is FPDUs read ahead:
 * it is handed back too, for the engine to process first. Nothing is lost.
 *
 * <p>Stream data ahead of the frame is bounded ({@link StreamBeforeFrame}): none where the
 * connection carried no stream before the switch, so that a wrong key fails the switch as soon
 * as its first wrong octet arrives (RFC 5044 section 7.1.1: close at once), not at the timeout.
 *
 * <p>With fallback (IwarpOptions.FALLBACK), what shows the peer is not an iWARP peer before its
 * MPA key is complete (other octets, its close or reset, its silence for the fallback wait) ends
 * the handshake with a {@link NotAnIwarpPeerException} carrying every octet read, so that the
 * connection can go on as plain TCP. Once the key is in, the peer speaks MPA: its rejection or a
 * bad frame fails the switch as without fallback.
 */
final class MpaHandshake {

    /** How the handshake ended well. */
    record Outcome(MpaAgreement agreement, MpaFrame localFrame, MpaFrame peerFrame, byte[] streamBytes,
                   byte[] readAhead) {
    }

    private final SocketChannel channel;
    /**
     * The calling thread's wait on a non-blocking channel, or null: a platform thread's
     * handshake waits in the Selector the connection keeps for its application's waits.
     */
    private final Selector waitSelector;
    private final MpaPreferences preferences;
    private final long deadline;
    private final int timeoutMillis;
    /** How long the peer's key may take with fallback on; {@link ConnectionSettings#NO_FALLBACK} if off. */
    private final int fallbackWaitMillis;
    /** When the key must be complete: the fallback wait's end, or the MPA timeout's without fallback. */
    private final long keyDeadline;
    private final InputStream in;
    /** Most stream octets accepted ahead of the peer's MPA frame ({@link StreamBeforeFrame}). */
    private final int maxStreamBytesBeforeFrame;

    private byte[] received = new byte[4096];
    private int length;
    /**
     * Where the peer's MPA key was found, once it arrived whole (from then on it is an MPA peer,
     * whatever happens next); the frame parser and how far it got after it.
     */
    private MpaKeyScanner.Found key;
    private MpaFrameParser parser;
    private int parsedUpTo;

    private MpaHandshake(SocketChannel channel, Selector waitSelector, MpaPreferences preferences, int timeoutMillis,
                         int maxStreamBytesBeforeFrame, int fallbackWaitMillis) throws IOException {
        this.channel = channel;
        this.waitSelector = waitSelector;
        this.maxStreamBytesBeforeFrame = maxStreamBytesBeforeFrame;
        this.preferences = preferences;
        this.timeoutMillis = timeoutMillis;
        long now = System.nanoTime();
        this.deadline = now + timeoutMillis * 1_000_000L;
        this.fallbackWaitMillis = fallbackWaitMillis;
        this.keyDeadline = fallbackWaitMillis == ConnectionSettings.NO_FALLBACK ? deadline
                : Math.min(deadline, now + fallbackWaitMillis * 1_000_000L);
        // A non-blocking channel is read by receiveAvailable, on a selector's signal.
        this.in = channel.isBlocking() ? channel.socket().getInputStream() : null;
        if (waitSelector != null && channel.isBlocking()) {
            throw new IllegalArgumentException("a handshake that waits in a Selector needs a non-blocking channel");
        }
    }

    /**
     * Runs setup as the MPA initiator (the side that connected).
     *
     * @param fallbackWaitMillis how long the responder's key may take before it is taken for a
     *                           plain TCP peer, or {@link ConnectionSettings#NO_FALLBACK}
     */
    static Outcome initiate(SocketChannel channel, Selector waitSelector, MpaPreferences preferences,
                            int timeoutMillis, int maxStreamBytesBeforeFrame, int fallbackWaitMillis)
            throws IOException {
        MpaHandshake handshake = new MpaHandshake(channel, waitSelector, preferences, timeoutMillis,
                maxStreamBytesBeforeFrame, fallbackWaitMillis);
        MpaFrame request = MpaNegotiation.request(preferences);
        try {
            handshake.write(request.toBytes());
        } catch (IwarpNegotiationException peerGone) {
            throw handshake.fallbackOr(peerGone);
        }
        Received reply = handshake.receive(MpaFrameType.REPLY);
        MpaOutcome outcome = MpaNegotiation.complete(preferences, request, reply.frame);
        if (outcome instanceof MpaFailure failure) {
            if (failure.terminate().isPresent()) {
                // RFC 6581 section 8: the initiator reports these with a Terminate before closing.
                MpaSetupFailure.sendTerminate(handshake.channel, failure.terminate().get(),
                        request.crc() || reply.frame.crc(), reply.frame.markers());
            }
            throw MpaSetupFailure.exception(failure, "the responder's Reply");
        }
        return new Outcome((MpaAgreement) outcome, request, reply.frame, reply.streamBytes, reply.readAhead);
    }

    /**
     * Runs setup as the MPA responder (the side that accepted).
     *
     * @param fallbackWaitMillis how long the initiator's key may take before it is taken for a
     *                           plain TCP peer, or {@link ConnectionSettings#NO_FALLBACK}
     */
    static Outcome respond(SocketChannel channel, Selector waitSelector, MpaPreferences preferences,
                           int timeoutMillis, int maxStreamBytesBeforeFrame, int fallbackWaitMillis)
            throws IOException {
        MpaHandshake handshake = new MpaHandshake(channel, waitSelector, preferences, timeoutMillis,
                maxStreamBytesBeforeFrame, fallbackWaitMillis);
        return handshake.reply(handshake.receive(MpaFrameType.REQUEST));
    }

    /**
     * A responder's handshake on a non-blocking channel, driven by a selector: {@link
     * #receiveAvailable} as the channel becomes readable, {@link #expired} as time passes, then
     * {@link #reply}. Connections negotiated ahead of {@code accept} run this way.
     */
    static MpaHandshake nonBlockingResponder(SocketChannel channel, MpaPreferences preferences, int timeoutMillis,
                                             int fallbackWaitMillis) throws IOException {
        if (channel.isBlocking()) {
            throw new IllegalArgumentException("the channel must be in non-blocking mode");
        }
        return new MpaHandshake(channel, null, preferences, timeoutMillis, 0, fallbackWaitMillis);
    }

    /**
     * As responder, answers the initiator's Request: sends the Reply, whether it accepts or
     * rejects, and returns what was agreed.
     *
     * @throws IwarpNegotiationException if the Request cannot be agreed to (the Reply said so)
     */
    Outcome reply(Received request) throws IOException {
        ResponderDecision decision = MpaNegotiation.respond(preferences, request.frame);
        write(decision.reply().toBytes());
        if (decision.outcome() instanceof MpaFailure failure) {
            throw MpaSetupFailure.exception(failure, "the initiator's Request");
        }
        return new Outcome((MpaAgreement) decision.outcome(), decision.reply(), request.frame, request.streamBytes,
                request.readAhead);
    }

    /** The peer's MPA frame, the stream octets that came before it and the FPDU octets after it. */
    record Received(MpaFrame frame, byte[] streamBytes, byte[] readAhead) {
    }

    /** Reads until the peer's frame is complete: stream bytes before it, FPDU bytes after it. */
    private Received receive(MpaFrameType expected) throws IOException {
        if (waitSelector != null) {
            return receiveWaiting(expected);
        }
        while (true) {
            Received frame = receivedSoFar(expected);
            if (frame != null) {
                return frame;
            }
            try {
                readMore(expected, nextDeadlineNanos());
            } catch (IwarpNegotiationException failure) {
                throw fallbackOr(failure);
            }
        }
    }

    /**
     * As {@link #receive}, on a non-blocking channel: what has arrived, then a wait in the
     * Selector until more does or a deadline passes. An interrupt ends it as it ends a blocking
     * channel's read: the channel closes.
     */
    private Received receiveWaiting(MpaFrameType expected) throws IOException {
        while (true) {
            Received frame = receiveAvailable(expected);
            if (frame != null) {
                return frame;
            }
            long now = System.nanoTime();
            IOException expiredNow = expired(expected, now);
            if (expiredNow != null) {
                throw expiredNow;
            }
            long millis = Math.max(1, (nextDeadlineNanos() - now + 999_999) / 1_000_000);
            waitSelector.select(SpareSelectors.IGNORE_KEY, millis);
            if (Thread.currentThread().isInterrupted()) {
                channel.close();
                throw new ClosedByInterruptException();
            }
        }
    }

    /**
     * Non-blocking: reads what the channel holds and parses it.
     *
     * @return the peer's frame once it is whole; null while more must come
     * @throws IOException as the blocking handshake fails (with fallback, a {@link
     *         NotAnIwarpPeerException} for a peer that is not an MPA peer)
     */
    Received receiveAvailable(MpaFrameType expected) throws IOException {
        while (true) {
            Received frame = receivedSoFar(expected);
            if (frame != null) {
                return frame;
            }
            makeRoom();
            int n;
            try {
                n = channel.read(ByteBuffer.wrap(received, length, received.length - length));
                if (n == 0) {
                    return null;
                }
                took(n, expected);
            } catch (IwarpNegotiationException failure) {
                throw fallbackOr(failure);
            } catch (ClosedChannelException e) {
                throw e;  // closed here, not by the peer
            } catch (IOException e) {
                throw fallbackOr(connectionFailed(e, "before its MPA " + expected));
            }
        }
    }

    /** When the handshake times out next: at the key deadline until the key is in, then at the MPA timeout. */
    long nextDeadlineNanos() {
        return key != null ? deadline : keyDeadline;
    }

    /**
     * The failure the handshake ends with at {@code nowNanos}, if a deadline has passed: with
     * fallback, a {@link NotAnIwarpPeerException} for a peer silent past the key deadline.
     *
     * @return the timeout, or null if the handshake may go on
     */
    IOException expired(MpaFrameType expected, long nowNanos) {
        long until = nextDeadlineNanos();
        if (nowNanos - until < 0) {
            return null;
        }
        return fallbackOr(timeout(expected, until));
    }

    /**
     * Parses what has arrived so far.
     *
     * @return the peer's frame once it is whole; null while more must come
     */
    private Received receivedSoFar(MpaFrameType expected) throws IOException {
        if (key == null) {
            try {
                MpaKeyScanner.Found found = MpaKeyScanner.find(received, length);
                if (found == null) {
                    requireFrameWithinBound(expected, MpaKeyScanner.safePrefix(received, length));
                    return null;
                }
                requireFrameWithinBound(expected, found.index());
                if (found.type() != expected) {
                    throw new IwarpNegotiationException(Reason.NOT_AN_IWARP_PEER, "expected the peer's MPA " + expected
                            + " but it sent an MPA " + found.type() + (found.type() == MpaFrameType.REQUEST
                            ? ": it echoes what it receives, or both sides connected" : ": both sides accepted"),
                            null);
                }
                key = found;
            } catch (IwarpNegotiationException notAnMpaPeer) {
                throw fallbackOr(notAnMpaPeer);
            }
            parser = new MpaFrameParser(expected);
            parsedUpTo = key.index();
        }
        ByteBuffer input = ByteBuffer.wrap(received, parsedUpTo, length - parsedUpTo);
        MpaFrame frame;
        try {
            frame = parser.parse(input);
        } catch (MpaSetupException e) {
            throw new IwarpNegotiationException(Reason.MALFORMED, e.getMessage(), null);
        }
        parsedUpTo = input.position();
        if (frame == null) {
            return null;
        }
        return new Received(frame, Arrays.copyOf(received, key.index()),
                Arrays.copyOfRange(received, parsedUpTo, length));
    }

    /**
     * What to throw for a failure of the handshake: before the peer's key is in, it shows the
     * peer is no MPA peer, and with fallback on the signal is that the connection goes on as
     * plain TCP, with every octet read; else (fallback off, or an MPA peer's failure) the failure.
     */
    private IOException fallbackOr(IwarpNegotiationException notAnMpaPeer) {
        if (fallbackWaitMillis == ConnectionSettings.NO_FALLBACK || key != null) {
            return notAnMpaPeer;
        }
        return new NotAnIwarpPeerException(notAnMpaPeer, Arrays.copyOf(received, length));
    }

    /** Fails the switch once more stream octets than may precede the peer's frame came before it. */
    private void requireFrameWithinBound(MpaFrameType expected, int streamOctets) throws IwarpNegotiationException {
        if (streamOctets <= maxStreamBytesBeforeFrame) {
            return;
        }
        if (maxStreamBytesBeforeFrame == 0) {
            throw new IwarpNegotiationException(Reason.NOT_AN_IWARP_PEER, "the peer's first octets are not the key"
                    + " of an MPA " + expected + " (\"" + expected.key() + "\"): " + printable(0)
                    + "; the connection carried no stream before the switch, so nothing else may come first", null);
        }
        throw new IwarpNegotiationException(Reason.NOT_AN_IWARP_PEER, "the peer sent " + streamOctets
                + " octets and no MPA " + expected + ", more than it can have written before its switch ("
                + maxStreamBytesBeforeFrame + "): " + printable(0), null);
    }

    private void readMore(MpaFrameType expected, long until) throws IOException {
        long remainingNanos = until - System.nanoTime();
        if (remainingNanos <= 0) {
            throw timeout(expected, until);
        }
        makeRoom();
        channel.socket().setSoTimeout((int) Math.max(1, remainingNanos / 1_000_000));
        int n;
        try {
            n = in.read(received, length, received.length - length);
        } catch (SocketTimeoutException e) {
            throw timeout(expected, until);
        } catch (ClosedChannelException e) {
            throw e;  // closed here, not by the peer
        } catch (IOException e) {
            // A peer that closed with our bytes unread reset the connection: that is a close too.
            throw connectionFailed(e, "before its MPA " + expected);
        }
        took(n, expected);
    }

    /** Room for the next read: the buffer doubles when full (the frame's bound limits it). */
    private void makeRoom() {
        if (length == received.length) {
            received = Arrays.copyOf(received, received.length * 2);
        }
    }

    /** Counts what a read took; at the peer's close ({@code n < 0}), fails the handshake. */
    private void took(int n, MpaFrameType expected) throws IwarpNegotiationException {
        if (n < 0) {
            if (key != null) {  // an MPA peer, gone in the middle of its frame
                throw new IwarpNegotiationException(Reason.CONNECTION_CLOSED, "the peer closed the connection in"
                        + " the middle of its MPA " + expected + "; it sent " + printable(0), null);
            }
            throw new IwarpNegotiationException(length == 0 ? Reason.CONNECTION_CLOSED : Reason.NOT_AN_IWARP_PEER,
                    "the peer closed the connection before its MPA " + expected
                            + (length == 0 ? " (is it in IWARP_MODE?)" : "; it sent " + printable(0)), null);
        }
        length += n;
    }

    private IwarpNegotiationException timeout(MpaFrameType expected, long until) {
        String limit = until == deadline ? timeoutMillis + " ms"
                : fallbackWaitMillis + " ms (IwarpOptions.FALLBACK_WAIT)";
        return new IwarpNegotiationException(Reason.TIMEOUT, "no MPA " + expected + " from the peer within "
                + limit + " (is it in IWARP_MODE?)" + (length == 0 ? "; it sent nothing"
                : "; it sent " + printable(0)), null);
    }

    private void write(byte[] frame) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(frame);
        try {
            while (out.hasRemaining()) {
                if (channel.write(out) == 0 && !channel.isBlocking()) {
                    // A new connection's empty send buffer takes a frame this small whole.
                    throw new IOException("the socket's send buffer took " + out.position() + " of the "
                            + frame.length + " octets of our MPA frame");
                }
            }
        } catch (ClosedChannelException e) {
            throw e;  // closed here, not by the peer
        } catch (IOException e) {
            throw connectionFailed(e, "while we sent our MPA frame");
        }
    }

    /** The peer ended the connection (a reset or a broken pipe) during negotiation. */
    private IwarpNegotiationException connectionFailed(IOException e, String when) {
        IwarpNegotiationException failure = new IwarpNegotiationException(Reason.CONNECTION_CLOSED,
                "the peer closed the connection " + when + " (" + e.getMessage() + ")"
                        + (length == 0 ? "" : "; it sent " + printable(0)), null);
        failure.initCause(e);
        return failure;
    }

    /** What the peer sent so far, for error messages. */
    private String printable(int from) {
        return Printable.describe(received, from, length);
    }

    static String ascii(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
