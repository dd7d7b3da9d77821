package io.extsock.core.terminate;

/**
 * The layer that detected an error, as carried in the Layer field of an RDMAP Terminate
 * message (RFC 5040 section 7.4; values from the IANA RDDP registry, RFC 6580).
 */
public enum ErrorLayer {
    /** RDMAP, RFC 5040. */
    RDMAP(0x0),
    /** DDP, RFC 5041. */
    DDP(0x1),
    /** The lower-layer protocol: MPA over TCP, RFC 5044 and RFC 6581. */
    LLP(0x2);

    private final int wireValue;

    ErrorLayer(int wireValue) {
        this.wireValue = wireValue;
    }

    /** The 4-bit Layer value on the wire. */
    public int wireValue() {
        return wireValue;
    }

    /** The layer with this wire value, or null if there is none. */
    public static ErrorLayer fromWire(int value) {
        for (ErrorLayer layer : values()) {
            if (layer.wireValue == value) {
                return layer;
            }
        }
        return null;
    }
}
