package io.extsock.rdma.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.SequenceLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binding's struct layouts and constants against the installed rdma-core headers: a C
 * program prints {@code offsetof} of every member {@link RdmaStructs} names, {@code sizeof} of
 * every struct it describes whole, and the value of every {@link RdmaConstants} entry, and each
 * must be what the binding uses. Needs root (to install the headers and gcc) or both installed.
 */
@Tag("interop")
class RdmaStructsIT {

    @TempDir
    Path work;

    @Test
    void everyOffsetSizeAndConstantIsTheInstalledHeaders() throws Exception {
        RdmaCoreInstallation.ensure();
        Map<String, Long> expected = new LinkedHashMap<>();
        StringBuilder c = new StringBuilder("""
                #include <stddef.h>
                #include <stdio.h>
                #include <errno.h>
                #include <fcntl.h>
                #include <poll.h>
                #include <sys/eventfd.h>
                #include <sys/resource.h>
                #include <sys/socket.h>
                #include <netinet/in.h>
                #include <infiniband/verbs.h>
                #include <rdma/rdma_cma.h>
                int main(void) {
                """);
        for (RdmaStructs.Struct struct : RdmaStructs.ALL) {
            for (RdmaStructs.Struct.Member member : struct.members()) {
                String key = struct.name() + "." + member.designator();
                expected.put(key, member.offset());
                c.append("  printf(\"%s %zu\\n\", \"").append(key).append("\", offsetof(struct ")
                        .append(struct.name()).append(", ").append(member.designator()).append("));\n");
                if (member.layout() instanceof SequenceLayout) {
                    expected.put("sizeof " + key, member.layout().byteSize());
                    c.append("  printf(\"%s %zu\\n\", \"sizeof ").append(key).append("\", sizeof(((struct ")
                            .append(struct.name()).append(" *) 0)->").append(member.designator()).append("));\n");
                }
            }
            if (struct.whole()) {
                expected.put("sizeof " + struct.name(), struct.size());
                c.append("  printf(\"%s %zu\\n\", \"sizeof ").append(struct.name()).append("\", sizeof(struct ")
                        .append(struct.name()).append("));\n");
            }
        }
        expected.put("sizeof sockaddr_in", (long) SocketAddresses.SOCKADDR_IN_SIZE);
        c.append("  printf(\"%s %zu\\n\", \"sizeof sockaddr_in\", sizeof(struct sockaddr_in));\n");
        expected.put("sizeof sockaddr_in6", (long) SocketAddresses.SOCKADDR_IN6_SIZE);
        c.append("  printf(\"%s %zu\\n\", \"sizeof sockaddr_in6\", sizeof(struct sockaddr_in6));\n");
        for (Map.Entry<String, Long> constant : RdmaConstants.ALL.entrySet()) {
            expected.put(constant.getKey(), constant.getValue());
            c.append("  printf(\"%s %lld\\n\", \"").append(constant.getKey()).append("\", (long long) ")
                    .append(constant.getKey()).append(");\n");
        }
        c.append("  return 0;\n}\n");

        Path source = Files.writeString(work.resolve("layouts.c"), c);
        Path program = work.resolve("layouts");
        RdmaCoreInstallation.run(List.of("gcc", "-Wall", "-Werror", "-o", program.toString(), source.toString()));
        String printed = RdmaCoreInstallation.run(List.of(program.toString()));

        Map<String, Long> actual = new LinkedHashMap<>();
        for (String line : printed.strip().split("\n")) {
            int space = line.lastIndexOf(' ');
            actual.put(line.substring(0, space), Long.parseLong(line.substring(space + 1)));
        }
        List<String> wrong = new ArrayList<>();
        expected.forEach((key, value) -> {
            if (!value.equals(actual.get(key))) {
                wrong.add(key + ": the binding says " + value + ", the headers " + actual.get(key));
            }
        });
        assertEquals(List.of(), wrong, "layouts or constants that differ from the installed headers");
        assertTrue(expected.size() > 150, "members, sizes and constants checked: " + expected.size());
    }
}
