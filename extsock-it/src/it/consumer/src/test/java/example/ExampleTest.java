package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's example, run by a project that depends on extsock as the README says. */
class ExampleTest {

    @Test
    void echoThenAnRdmaWriteAndAnRdmaRead() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            Example.main(new String[0]);
        } finally {
            System.setOut(out);
        }
        String output = printed.toString(StandardCharsets.UTF_8);
        System.out.print(output);
        assertEquals(List.of(
                "echo: hello",
                "request 1, RDMA_WRITE: SUCCESS",
                "request 2, RDMA_READ: SUCCESS",
                "RDMA Read brought: server data",
                "RDMA Write left: client data"), output.lines().toList());
    }

    @Test
    void theEngineIsFoundByServiceLoaderFromTheCoreJar() {
        // extsock-api has no engine; extsock-core, a runtime dependency, provides it.
        String api = ExtendedSocket.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertTrue(api.contains("extsock-api"), api);
        var providers = java.util.ServiceLoader.load(io.extsock.spi.IwarpProvider.class).stream().toList();
        assertEquals(1, providers.size(), "providers: " + providers);
        String core = providers.get(0).type().getProtectionDomain().getCodeSource().getLocation().toString();
        assertTrue(core.contains("extsock-core"), core);
    }

    @Test
    void theJarsAreTheModulesTheReadmeNames() throws Exception {
        ModuleDescriptor api = descriptor(ExtendedSocket.class);
        assertEquals("io.extsock.api", api.name());
        assertTrue(api.uses().contains("io.extsock.spi.IwarpProvider"), api.toString());
        Class<?> provider = java.util.ServiceLoader.load(io.extsock.spi.IwarpProvider.class).stream()
                .findFirst().orElseThrow().type();
        ModuleDescriptor core = descriptor(provider);
        assertEquals("io.extsock.core", core.name());
        assertTrue(core.provides().stream().anyMatch(p -> p.service().equals("io.extsock.spi.IwarpProvider")),
                core.toString());
    }

    private static ModuleDescriptor descriptor(Class<?> inJar) throws Exception {
        Path jar = Path.of(inJar.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(jar).findAll().iterator().next().descriptor();
    }
}
