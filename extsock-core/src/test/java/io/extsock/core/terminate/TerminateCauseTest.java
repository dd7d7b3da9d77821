package io.extsock.core.terminate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TerminateCauseTest {

    /**
     * The IANA RDDP registry (RFC 6580 sections 3.1 to 3.3, RFC 6581 section 11), one row per
     * registered Layer/Error-Type/Error-Code, written out independently of the enum.
     */
    private static final Object[][] REGISTRY = {
        {0x0, 0x1, 0x00, TerminateCause.RDMAP_INVALID_STAG},
        {0x0, 0x1, 0x01, TerminateCause.RDMAP_BASE_OR_BOUNDS},
        {0x0, 0x1, 0x02, TerminateCause.RDMAP_ACCESS_RIGHTS},
        {0x0, 0x1, 0x03, TerminateCause.RDMAP_STAG_NOT_ASSOCIATED},
        {0x0, 0x1, 0x04, TerminateCause.RDMAP_TO_WRAP},
        {0x0, 0x1, 0x09, TerminateCause.RDMAP_PROTECTION_CANNOT_INVALIDATE},
        {0x0, 0x1, 0xFF, TerminateCause.RDMAP_PROTECTION_UNSPECIFIED},
        {0x0, 0x2, 0x05, TerminateCause.RDMAP_INVALID_VERSION},
        {0x0, 0x2, 0x06, TerminateCause.RDMAP_UNEXPECTED_OPCODE},
        {0x0, 0x2, 0x07, TerminateCause.RDMAP_CATASTROPHIC_STREAM},
        {0x0, 0x2, 0x08, TerminateCause.RDMAP_CATASTROPHIC_GLOBAL},
        {0x0, 0x2, 0x09, TerminateCause.RDMAP_OPERATION_CANNOT_INVALIDATE},
        {0x0, 0x2, 0xFF, TerminateCause.RDMAP_OPERATION_UNSPECIFIED},
        {0x1, 0x0, 0x00, TerminateCause.DDP_LOCAL_CATASTROPHIC},
        {0x1, 0x1, 0x00, TerminateCause.DDP_TAGGED_INVALID_STAG},
        {0x1, 0x1, 0x01, TerminateCause.DDP_TAGGED_BASE_OR_BOUNDS},
        {0x1, 0x1, 0x02, TerminateCause.DDP_TAGGED_STAG_NOT_ASSOCIATED},
        {0x1, 0x1, 0x03, TerminateCause.DDP_TAGGED_TO_WRAP},
        {0x1, 0x1, 0x04, TerminateCause.DDP_TAGGED_INVALID_VERSION},
        {0x1, 0x2, 0x01, TerminateCause.DDP_UNTAGGED_INVALID_QN},
        {0x1, 0x2, 0x02, TerminateCause.DDP_UNTAGGED_NO_BUFFER},
        {0x1, 0x2, 0x03, TerminateCause.DDP_UNTAGGED_INVALID_MSN_RANGE},
        {0x1, 0x2, 0x04, TerminateCause.DDP_UNTAGGED_INVALID_MO},
        {0x1, 0x2, 0x05, TerminateCause.DDP_UNTAGGED_MESSAGE_TOO_LONG},
        {0x1, 0x2, 0x06, TerminateCause.DDP_UNTAGGED_INVALID_VERSION},
        {0x2, 0x0, 0x01, TerminateCause.LLP_TCP_STREAM_LOST},
        {0x2, 0x0, 0x02, TerminateCause.LLP_MPA_CRC},
        {0x2, 0x0, 0x03, TerminateCause.LLP_MPA_MARKER},
        {0x2, 0x0, 0x04, TerminateCause.LLP_MPA_INVALID_REQUEST_REPLY},
        {0x2, 0x0, 0x05, TerminateCause.LLP_MPA_LOCAL_CATASTROPHIC},
        {0x2, 0x0, 0x06, TerminateCause.LLP_MPA_INSUFFICIENT_IRD},
        {0x2, 0x0, 0x07, TerminateCause.LLP_MPA_NO_MATCHING_RTR},
    };

    @ParameterizedTest
    @EnumSource(TerminateCause.class)
    void everyCauseRoundTripsThroughItsWireValues(TerminateCause cause) {
        assertSame(cause, TerminateCause.fromWire(cause.layer().wireValue(), cause.errorType(), cause.errorCode()));
        assertSame(cause, TerminateCause.fromControlBits(cause.controlBits()));
    }

    @Test
    void everyRegisteredCodeMapsToItsCause_rfc6580_rfc6581() {
        Set<TerminateCause> seen = EnumSet.noneOf(TerminateCause.class);
        for (Object[] row : REGISTRY) {
            TerminateCause expected = (TerminateCause) row[3];
            assertSame(expected, TerminateCause.fromWire((int) row[0], (int) row[1], (int) row[2]), expected.name());
            assertEquals(((int) row[0] << 12) | ((int) row[1] << 8) | (int) row[2], expected.controlBits());
            seen.add(expected);
        }
        Set<TerminateCause> allCodes = EnumSet.allOf(TerminateCause.class);
        allCodes.removeIf(TerminateCause::matchesAnyErrorCode);
        assertEquals(allCodes, seen, "every single-code cause is a registered row, and no row is missing");
    }

    @Test
    void rdmapLocalCatastrophicAcceptsAnyErrorCode_rfc5040_4_8() {
        for (int code = 0; code < 256; code++) {
            assertSame(TerminateCause.RDMAP_LOCAL_CATASTROPHIC, TerminateCause.fromWire(0, 0, code));
        }
    }

    @Test
    void ddpLocalCatastrophicIsRegisteredWithCodeZeroOnly_rfc5041_7_2() {
        assertSame(TerminateCause.DDP_LOCAL_CATASTROPHIC, TerminateCause.fromWire(1, 0, 0));
        assertNull(TerminateCause.fromWire(1, 0, 1));
        assertFalse(TerminateCause.DDP_LOCAL_CATASTROPHIC.matchesAnyErrorCode());
    }

    @Test
    void ddpErrorTypeThreeIsReservedForTheLlpWhateverItsCode_rfc5041_7_2() {
        for (int code = 0; code < 256; code++) {
            assertSame(TerminateCause.DDP_RESERVED_FOR_LLP, TerminateCause.fromWire(1, 3, code));
        }
    }

    @Test
    void unregisteredCombinationsNameNoCause() {
        int registered = 0;
        for (int layer = 0; layer < 16; layer++) {
            for (int type = 0; type < 16; type++) {
                for (int code = 0; code < 256; code++) {
                    if (TerminateCause.fromWire(layer, type, code) != null) {
                        registered++;
                    }
                }
            }
        }
        // the single-code rows, plus all 256 codes of each of the two "ALL" rows
        assertEquals(REGISTRY.length + 256 + 256, registered);
        assertNull(TerminateCause.fromWire(0, 2, 0x02), "RDMAP operation error 0x02 is unassigned");
        assertNull(TerminateCause.fromWire(2, 1, 0x02), "LLP error type 1 is unassigned");
        assertNull(TerminateCause.fromWire(3, 0, 0), "layer 3 is unassigned");
    }

    @Test
    void descriptionsAreDistinct() {
        Set<String> descriptions = new HashSet<>();
        for (TerminateCause cause : TerminateCause.values()) {
            assertTrue(descriptions.add(cause.description()), cause.name());
        }
    }
}
