package io.extsock.examples.cli;

import picocli.CommandLine.IVersionProvider;

/** Reports the version recorded in the jar manifest. */
public final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"extsock " + (version != null ? version : "(development build)"),
                "Java " + Runtime.version()};
    }
}
