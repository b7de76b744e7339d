// Headless stand-in (written for the Guarantor differential fuzzer) for the plugin registry that
// LTSA's GUI classes call; the analysis core needs only that the call exists.
package com.chatley.magicbeans;

public class PluginManager {
    private static final PluginManager INSTANCE = new PluginManager();

    public static PluginManager getInstance() {
        return INSTANCE;
    }

    public void addBackDatedObserver(Object observer) {}
}
