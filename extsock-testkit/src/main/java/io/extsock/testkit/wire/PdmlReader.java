package io.extsock.testkit.wire;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads tshark's PDML ({@code -T pdml}) into {@link DissectedPacket}s. Streaming (StAX),
 * because a capture of a few MB becomes PDML a hundred times larger.
 *
 * <p>What it looks for besides the layers: {@code _ws.expert} fields (the expert items that
 * have a tree item, with the layer that raised them) and {@code _ws.malformed} protos, which
 * tshark nests in odd places (top level, under a field of {@code fake-field-wrapper}).
 */
final class PdmlReader {

    private PdmlReader() {
    }

    static List<DissectedPacket> read(InputStream pdml) throws IOException {
        XMLInputFactory factory = XMLInputFactory.newInstance();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        List<DissectedPacket> packets = new ArrayList<>();
        try {
            XMLStreamReader xml = factory.createXMLStreamReader(pdml);
            DissectedPacket packet = null;
            PdmlLayer layer = null;
            int protoDepth = 0;
            // Open _ws.expert fields: [message, severity] filled by their children.
            Deque<String[]> experts = new ArrayDeque<>();
            Deque<String> open = new ArrayDeque<>();
            while (xml.hasNext()) {
                int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    String element = xml.getLocalName();
                    String name = attribute(xml, "name");
                    open.push(element + ":" + name);
                    switch (element) {
                        case "packet" -> {
                            packet = new DissectedPacket();
                            protoDepth = 0;
                        }
                        case "proto" -> {
                            protoDepth++;
                            if (packet == null) {
                                break;
                            }
                            // tshark nests a bare "_ws.malformed" inside the one that names the
                            // dissector: one mark per packet, the most telling text.
                            if (name.equals("_ws.malformed")) {
                                String text = attribute(xml, "showname");
                                if (packet.malformed.isEmpty()) {
                                    packet.malformed.add(text.isEmpty() ? "Malformed Packet" : text);
                                } else if (text.length() > packet.malformed.get(0).length()) {
                                    packet.malformed.set(0, text);
                                }
                            }
                            if (protoDepth == 1) {
                                layer = new PdmlLayer(name, intAttribute(xml, "size"));
                                packet.layers.add(layer);
                            }
                        }
                        case "field" -> {
                            if (packet == null || layer == null) {
                                break;
                            }
                            PdmlField field = new PdmlField(name, attribute(xml, "show"), attribute(xml, "value"),
                                    attribute(xml, "showname"), intAttribute(xml, "pos"), intAttribute(xml, "size"));
                            layer.fields.add(field);
                            switch (name) {
                                case "_ws.expert" -> experts.push(new String[] {null, null});
                                case "_ws.expert.message" -> {
                                    if (!experts.isEmpty()) {
                                        experts.peek()[0] = field.show();
                                    }
                                }
                                case "_ws.expert.severity" -> {
                                    if (!experts.isEmpty()) {
                                        experts.peek()[1] = field.show();
                                    }
                                }
                                case "num", "frame.number" -> {
                                    if (packet.frame == 0) {
                                        packet.frame = (int) field.number();
                                    }
                                }
                                default -> {
                                }
                            }
                        }
                        default -> {
                        }
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    String closed = open.isEmpty() ? "" : open.pop();
                    if (closed.equals("field:_ws.expert") && !experts.isEmpty() && packet != null) {
                        String[] expert = experts.pop();
                        packet.experts.add(new ExpertItem(ExpertItem.severityOf(String.valueOf(expert[1])),
                                layer == null ? "?" : layer.name, String.valueOf(expert[0]), packet.frame, 1));
                    } else if (closed.startsWith("proto:")) {
                        protoDepth--;
                        if (protoDepth == 0) {
                            layer = null;
                        }
                    } else if (closed.equals("packet:") && packet != null) {
                        finish(packet);
                        packets.add(packet);
                        packet = null;
                    }
                }
            }
            xml.close();
        } catch (XMLStreamException e) {
            throw new IOException("tshark's PDML could not be read: " + e.getMessage(), e);
        }
        return packets;
    }

    /** The TCP facts, once all layers are in. */
    private static void finish(DissectedPacket packet) {
        for (PdmlLayer layer : packet.layers) {
            switch (layer.name) {
                case "ip", "ipv6" -> {
                    packet.source = layer.show(layer.name + ".src");
                    packet.destination = layer.show(layer.name + ".dst");
                }
                case "tcp" -> {
                    packet.stream = (int) layer.number("tcp.stream", -1);
                    packet.tcpLength = (int) layer.number("tcp.len", 0);
                    packet.source = packet.source + ":" + layer.show("tcp.srcport");
                    packet.destination = packet.destination + ":" + layer.show("tcp.dstport");
                    packet.retransmission = layer.has("tcp.analysis.retransmission")
                            || layer.has("tcp.analysis.fast_retransmission")
                            || layer.has("tcp.analysis.spurious_retransmission");
                }
                default -> {
                }
            }
        }
    }

    private static String attribute(XMLStreamReader xml, String name) {
        String value = xml.getAttributeValue(null, name);
        return value == null ? "" : value;
    }

    private static int intAttribute(XMLStreamReader xml, String name) {
        String value = xml.getAttributeValue(null, name);
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
