package io.extsock.core.mpa;

import static io.extsock.core.mpa.MpaConstants.IRD_ORD_MASK;
import static io.extsock.core.mpa.MpaConstants.MAX_PRIVATE_DATA;
import static io.extsock.core.mpa.MpaConstants.MAX_ULP_PRIVATE_DATA_ENHANCED;
import static io.extsock.core.mpa.MpaConstants.REVISION_1;
import static io.extsock.core.mpa.MpaConstants.REVISION_2;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What this side wants from MPA connection setup, as Initiator or Responder. Immutable; build
 * with {@link #builder()} or start from {@link #defaults()}.
 */
public final class MpaPreferences {

    private final int revision;
    private final boolean enhanced;
    private final boolean requestCrc;
    private final boolean requireMarkersOnReceive;
    private final boolean sendMarkersWhenRequired;
    private final int ird;
    private final int ord;
    private final boolean peerToPeer;
    private final Set<RtrKind> rtrKinds;
    private final boolean acceptRevision1Peers;
    private final PrivateData privateData;

    private MpaPreferences(Builder builder) {
        revision = builder.revision;
        enhanced = builder.enhanced;
        requestCrc = builder.requestCrc;
        requireMarkersOnReceive = builder.requireMarkersOnReceive;
        sendMarkersWhenRequired = builder.sendMarkersWhenRequired;
        ird = builder.ird;
        ord = builder.ord;
        peerToPeer = builder.peerToPeer;
        rtrKinds = builder.rtrKinds.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(builder.rtrKinds));
        acceptRevision1Peers = builder.acceptRevision1Peers;
        privateData = builder.privateData;
    }

    /** Revision 2 with enhanced setup, CRC asked for, no markers required, 16 reads each way, peer-to-peer. */
    public static MpaPreferences defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The revision we offer as Initiator and the highest we answer with as Responder. */
    public int revision() {
        return revision;
    }

    /**
     * Whether our revision 2 Request asks for RFC 6581 enhanced setup (H). As Responder we answer
     * an enhanced Request enhanced whenever we speak revision 2: an Initiator asking for it (siw
     * does) fails on anything else.
     */
    public boolean enhanced() {
        return enhanced;
    }

    /** C in our frame; CRCs are used when either side sets it, RFC 5044 section 7.1.1. */
    public boolean requestCrc() {
        return requestCrc;
    }

    /** M in our frame: the peer must then put markers in what it sends us. */
    public boolean requireMarkersOnReceive() {
        return requireMarkersOnReceive;
    }

    /** Whether we agree to send markers when the peer's M asks for them; otherwise setup fails. */
    public boolean sendMarkersWhenRequired() {
        return sendMarkersWhenRequired;
    }

    /** The inbound RDMA Read Requests we can have outstanding (serve at once), 0..16383. */
    public int ird() {
        return ird;
    }

    /** The outbound RDMA Read Requests we want to have outstanding, 0..16383. */
    public int ord() {
        return ord;
    }

    /**
     * Whether our enhanced Request asks for the peer-to-peer model (an RTR frame lets the
     * Responder speak first). As Responder we grant it whenever an RTR kind matches.
     */
    public boolean peerToPeer() {
        return peerToPeer;
    }

    /** The RTR kinds we offer as Initiator and accept as Responder. */
    public Set<RtrKind> rtrKinds() {
        return rtrKinds;
    }

    /** Whether a peer without enhanced setup (revision 1, or 2 without H) is acceptable. */
    public boolean acceptRevision1Peers() {
        return acceptRevision1Peers;
    }

    /** The ULP's private data for our Request or Reply. */
    public PrivateData privateData() {
        return privateData;
    }

    @Override
    public String toString() {
        return "MpaPreferences[revision=" + revision + ", enhanced=" + enhanced + ", requestCrc=" + requestCrc
                + ", requireMarkersOnReceive=" + requireMarkersOnReceive + ", sendMarkersWhenRequired="
                + sendMarkersWhenRequired + ", ird=" + ird + ", ord=" + ord + ", peerToPeer=" + peerToPeer
                + ", rtrKinds=" + rtrKinds + ", acceptRevision1Peers=" + acceptRevision1Peers
                + ", privateData=" + privateData + "]";
    }

    /** Collects preferences; {@link #build()} checks them together. */
    public static final class Builder {
        private int revision = REVISION_2;
        private boolean enhanced = true;
        private boolean requestCrc = true;
        private boolean requireMarkersOnReceive;
        private boolean sendMarkersWhenRequired = true;
        private int ird = 16;
        private int ord = 16;
        private boolean peerToPeer = true;
        private Set<RtrKind> rtrKinds = EnumSet.of(RtrKind.ZERO_LENGTH_WRITE, RtrKind.ZERO_LENGTH_READ);
        private boolean acceptRevision1Peers = true;
        private PrivateData privateData = PrivateData.EMPTY;

        private Builder() {
        }

        private Builder(MpaPreferences preferences) {
            revision = preferences.revision;
            enhanced = preferences.enhanced;
            requestCrc = preferences.requestCrc;
            requireMarkersOnReceive = preferences.requireMarkersOnReceive;
            sendMarkersWhenRequired = preferences.sendMarkersWhenRequired;
            ird = preferences.ird;
            ord = preferences.ord;
            peerToPeer = preferences.peerToPeer;
            rtrKinds = preferences.rtrKinds;
            acceptRevision1Peers = preferences.acceptRevision1Peers;
            privateData = preferences.privateData;
        }

        public Builder revision(int revision) {
            this.revision = revision;
            return this;
        }

        public Builder enhanced(boolean enhanced) {
            this.enhanced = enhanced;
            return this;
        }

        public Builder requestCrc(boolean requestCrc) {
            this.requestCrc = requestCrc;
            return this;
        }

        public Builder requireMarkersOnReceive(boolean requireMarkersOnReceive) {
            this.requireMarkersOnReceive = requireMarkersOnReceive;
            return this;
        }

        public Builder sendMarkersWhenRequired(boolean sendMarkersWhenRequired) {
            this.sendMarkersWhenRequired = sendMarkersWhenRequired;
            return this;
        }

        public Builder ird(int ird) {
            this.ird = ird;
            return this;
        }

        public Builder ord(int ord) {
            this.ord = ord;
            return this;
        }

        public Builder peerToPeer(boolean peerToPeer) {
            this.peerToPeer = peerToPeer;
            return this;
        }

        public Builder rtrKinds(Set<RtrKind> rtrKinds) {
            this.rtrKinds = Objects.requireNonNull(rtrKinds, "rtrKinds");
            return this;
        }

        public Builder acceptRevision1Peers(boolean acceptRevision1Peers) {
            this.acceptRevision1Peers = acceptRevision1Peers;
            return this;
        }

        public Builder privateData(PrivateData privateData) {
            this.privateData = Objects.requireNonNull(privateData, "privateData");
            return this;
        }

        /**
         * @throws IllegalArgumentException for a revision other than 1 or 2, an IRD or ORD
         *     outside 0..16383, or private data too long: 512 octets for revision 1, 508 for
         *     revision 2 (where the enhanced setup words may have to precede it)
         */
        public MpaPreferences build() {
            if (revision != REVISION_1 && revision != REVISION_2) {
                throw new IllegalArgumentException("MPA revision must be 1 or 2, not " + revision);
            }
            if (ird < 0 || ird > IRD_ORD_MASK || ord < 0 || ord > IRD_ORD_MASK) {
                throw new IllegalArgumentException("IRD and ORD must be 0.." + IRD_ORD_MASK
                        + ", not " + ird + " and " + ord);
            }
            int limit = revision == REVISION_2 ? MAX_ULP_PRIVATE_DATA_ENHANCED : MAX_PRIVATE_DATA;
            if (privateData.length() > limit) {
                throw new IllegalArgumentException("private data is " + privateData.length()
                        + " octets; revision " + revision + " leaves the ULP at most " + limit);
            }
            return new MpaPreferences(this);
        }
    }
}
