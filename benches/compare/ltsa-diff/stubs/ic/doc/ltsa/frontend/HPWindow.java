// Headless stand-in (written for the Guarantor differential fuzzer) for LTSA's main window: the
// analyser reports its state and transition counts to the window; here they are kept for the driver.
package ic.doc.ltsa.frontend;

public class HPWindow {
    private static final HPWindow INSTANCE = new HPWindow();
    public static int statesExplored;
    public static int transitionsTaken;

    public static HPWindow getInstance() {
        return INSTANCE;
    }

    public void setStatesExplored(int states) {
        statesExplored = states;
    }

    public void setTransitionsTaken(int transitions) {
        transitionsTaken = transitions;
    }
}
