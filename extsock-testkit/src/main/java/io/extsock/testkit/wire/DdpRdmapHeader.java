package io.extsock.testkit.wire;

/**
 * The DDP (RFC 5041) and RDMAP (RFC 5040) headers of one DDP segment. Tagged segments carry
 * STag and TO; untagged ones QN, MSN, MO, and in RsvdULP the STag to invalidate.
 *
 * @param untaggedRsvdUlp the four octets after the RDMAP control byte of an untagged header, hex
 * @param readRequest the Read Request body, or null
 * @param terminate the Terminate body, or null
 * @param complete false when Wireshark could not decode every field of the header
 */
public record DdpRdmapHeader(boolean tagged, boolean last, int ddpReserved, int ddpVersion, int rdmapVersion,
                             int rdmapReserved, int opcodeCode, long stag, long taggedOffset, long queue,
                             long messageSequence, long messageOffset, String untaggedRsvdUlp, Long invalidateStag,
                             ReadRequestFields readRequest, TerminateFields terminate, boolean complete) {

    public RdmapOpcode opcode() {
        return RdmapOpcode.of(opcodeCode);
    }

    /** DDP header length: 14 tagged, 18 untagged (RFC 5041 section 4). */
    public int length() {
        return tagged ? 14 : 18;
    }
}
