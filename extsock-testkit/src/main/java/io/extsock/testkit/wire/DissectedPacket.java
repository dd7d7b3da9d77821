package io.extsock.testkit.wire;

import java.util.ArrayList;
import java.util.List;

/** One captured frame as tshark dissected it: its TCP facts, its layers, experts, malformed marks. */
final class DissectedPacket {

    int frame;
    int stream = -1;
    String source = "?";
    String destination = "?";
    int tcpLength;
    /** TCP analysis took the segment for data sent before: its bytes are not new on the stream. */
    boolean retransmission;
    final List<PdmlLayer> layers = new ArrayList<>();
    final List<ExpertItem> experts = new ArrayList<>();
    final List<String> malformed = new ArrayList<>();

    boolean hasField(String name) {
        return layers.stream().anyMatch(layer -> layer.has(name));
    }
}
