package io.extsock.bench;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.spi.SelectorProvider;

/** A loopback connection of one provider's channels whose two ends each run a selector loop ({@link SelectingEnd}). */
final class SelectingLink implements Closeable {

    final SelectingEnd client;
    final SelectingEnd server;

    private SelectingLink(SelectingEnd client, SelectingEnd server) {
        this.client = client;
        this.server = server;
    }

    static SelectingLink open(SelectorProvider provider) throws IOException {
        ProviderLink link = ProviderLink.open(provider);
        SelectingEnd client = null;
        try {
            client = new SelectingEnd(link.client);
            return new SelectingLink(client, new SelectingEnd(link.server));
        } catch (IOException | RuntimeException e) {
            Closing.quietly(client, e);
            Closing.quietly(link, e);
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
