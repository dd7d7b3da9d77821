package io.extsock.core.engine;

import io.extsock.IwarpOptions;
import io.extsock.IwarpOptions.ReadyToReceive;
import io.extsock.core.mpa.MpaPreferences;
import io.extsock.core.mpa.PrivateData;
import io.extsock.core.mpa.RtrKind;
import io.extsock.internal.IwarpOptionValues;
import io.extsock.verbs.IwarpSetup;
import java.net.SocketOption;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** What a socket's iWARP options ask of one connection, resolved against the defaults. */
record ConnectionSettings(int mpaRevision, boolean crc, boolean markers, int ird, int ord, int maxFpduSize,
                          ReadyToReceive readyToReceive, int mpaTimeoutMillis, byte[] privateData, boolean streams,
                          IwarpSetup setup, boolean earlierStream, int fallbackWaitMillis, int spinMicros) {

    /** {@link #fallbackWaitMillis} when the switch may not fall back to plain TCP. */
    static final int NO_FALLBACK = 0;


    static ConnectionSettings from(Map<SocketOption<?>, Object> options) {
        // Without the socket's word that there was none, stream may have come before.
        boolean earlierStream = !Boolean.TRUE.equals(options.get(IwarpOptionValues.NO_EARLIER_STREAM));
        // A connection that carried stream cannot go on as plain TCP without a gap in it.
        boolean fallback = IwarpOptionValues.valueIn(options, IwarpOptions.FALLBACK) && !earlierStream;
        return new ConnectionSettings(
                IwarpOptionValues.valueIn(options, IwarpOptions.MPA_REVISION),
                IwarpOptionValues.valueIn(options, IwarpOptions.CRC),
                IwarpOptionValues.valueIn(options, IwarpOptions.MARKERS),
                IwarpOptionValues.valueIn(options, IwarpOptions.IRD),
                IwarpOptionValues.valueIn(options, IwarpOptions.ORD),
                IwarpOptionValues.valueIn(options, IwarpOptions.MAX_FPDU_SIZE),
                IwarpOptionValues.valueIn(options, IwarpOptions.READY_TO_RECEIVE),
                IwarpOptionValues.valueIn(options, IwarpOptions.MPA_TIMEOUT),
                IwarpOptionValues.valueIn(options, IwarpOptions.PRIVATE_DATA),
                IwarpOptionValues.valueIn(options, IwarpOptions.STREAMS),
                IwarpOptionValues.valueIn(options, IwarpOptions.SETUP),
                earlierStream,
                fallback ? IwarpOptionValues.valueIn(options, IwarpOptions.FALLBACK_WAIT) : NO_FALLBACK,
                IwarpOptionValues.valueIn(options, IwarpOptions.SPIN_MICROS));
    }

    /** The MPA preferences for these settings, with extsock's hello ahead of the application's data. */
    MpaPreferences mpaPreferences(ExtsockHello hello) {
        boolean peerToPeer = readyToReceive != ReadyToReceive.NONE && mpaRevision == 2;
        Set<RtrKind> rtr = EnumSet.noneOf(RtrKind.class);
        if (peerToPeer) {
            rtr.add(rtrKind(readyToReceive));
        }
        return MpaPreferences.builder()
                .revision(mpaRevision)
                .enhanced(mpaRevision == 2)
                .requestCrc(crc)
                .requireMarkersOnReceive(markers)
                .ird(ird)
                .ord(ord)
                .peerToPeer(peerToPeer)
                .rtrKinds(rtr)
                .acceptRevision1Peers(true)
                .privateData(PrivateData.of(hello.encodeWith(privateData)))
                .build();
    }

    private static RtrKind rtrKind(ReadyToReceive kind) {
        switch (kind) {
            case ZERO_LENGTH_READ:
                return RtrKind.ZERO_LENGTH_READ;
            case ZERO_LENGTH_SEND:
                return RtrKind.ZERO_LENGTH_SEND;
            default:
                return RtrKind.ZERO_LENGTH_WRITE;
        }
    }
}
