package io.extsock.testkit.fault;

import java.util.List;

/**
 * What the relay did to one direction: octets it passed on, the offsets it flipped, the
 * corruptions it could not apply (their target had already gone out), and how the direction
 * ended.
 */
public record FaultReport(long relayedOctets, List<Long> corruptedOffsets, List<String> missedCorruptions,
                          String ending) {

    public FaultReport {
        corruptedOffsets = List.copyOf(corruptedOffsets);
        missedCorruptions = List.copyOf(missedCorruptions);
    }

    /** How many octets were flipped. */
    public int corruptionsApplied() {
        return corruptedOffsets.size();
    }
}
