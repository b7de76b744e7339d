// Headless driver of LTSA's analysis core for the differential fuzzer (benches/compare/ltsa-diff).
// Written for Guarantor; it only calls LTSA's public classes, compiled by build-ltsa.sh in a
// scratch folder. For one FSP file and target it does what the GUI does after Compile, each step
// on a fresh compilation (as the GUI recompiles when the target changes): Check > Safety,
// Check > Progress, Check > LTL property for every `assert`, and Build > Compose, and prints the
// answers as one JSON line. GUI defaults: fair choice on, no partial-order reduction (LTSA's own
// static defaults). Each step has a time limit; a step that overruns ends the run (LTSA keeps its
// state in statics, so the later steps could not be trusted).
//
// Usage: java -cp LTSA_CLASSES:. LtsaDriver MODEL.lts TARGET [STEP_SECONDS [STEPS]]
//    or: java -cp ... LtsaDriver --serve STEP_SECONDS   (requests "MODEL<TAB>TARGET<TAB>STEPS"
//        a line on stdin, one JSON line each; it exits after a step that overran)
//   TARGET: a composite's name, or DEFAULT for a file without composites.
//   STEPS: comma-separated subset of safety,progress,asserts,compose (default: all).
// Output keys: compile ("ok" or "error: ..."), safety ("none", "deadlock", "violation"),
// progress ("pass", "violated", "error-state"), asserts {NAME: "pass", "violated", "deadlock",
// "error-state"}, states, transitions (the composition after Compose, hiding, minimal and
// deterministic applied, as LTSA counts them), and "timeout" or "crash: ..." for a step that
// did not finish.

import ic.doc.ltsa.common.iface.ICompositeState;
import ic.doc.ltsa.common.iface.LTSOutput;
import ic.doc.ltsa.common.infra.LTSException;
import ic.doc.ltsa.lts.CompactState;
import ic.doc.ltsa.lts.CompositeState;
import ic.doc.ltsa.lts.LTSCompiler;
import ic.doc.ltsa.lts.LTSInputString;
import ic.doc.ltsa.lts.ltl.AssertDefinition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

public class LtsaDriver {
    /** Collects what LTSA prints, so the verdict can be read off its own words. */
    static final class Out implements LTSOutput {
        final StringBuilder text = new StringBuilder();

        public void out(String s) {
            text.append(s);
        }

        public void outln(String s) {
            text.append(s).append('\n');
        }

        public void clearOutput() {
            text.setLength(0);
        }

        boolean has(String s) {
            return text.indexOf(s) >= 0;
        }
    }

    static String source;
    static String target;
    static String dir;

    static CompositeState compile(Out out) {
        LTSCompiler compiler = new LTSCompiler(new LTSInputString(source), out, dir);
        return (CompositeState) compiler.compile(target);
    }

    static String safety() {
        Out out = new Out();
        CompositeState cs = compile(out);
        out.clearOutput();
        cs.analyse(out);
        if (out.has("Trace to DEADLOCK")) return "deadlock";
        if (out.has("Trace to property violation")) return "violation";
        if (out.has("No deadlocks/errors")) return "none";
        return "unknown: " + out.text;
    }

    static String progress() {
        Out out = new Out();
        CompositeState cs = compile(out);
        out.clearOutput();
        cs.checkProgress(out);
        if (out.has("Safety property violation detected")) return "error-state";
        if (out.has("Progress violation")) return "violated";
        if (out.has("No progress violations detected")) return "pass";
        return "unknown: " + out.text;
    }

    static String ltl(String name) {
        Out out = new Out();
        CompositeState cs = compile(out);
        out.clearOutput();
        ICompositeState property = new AssertDefinition().compile(out, name);
        if (property == null) return "unknown: no automaton";
        out.clearOutput();
        cs.checkLTL(out, property);
        if (out.has("Safety property violation detected")) return "error-state";
        if (out.has("Violation of LTL property")) return "violated";
        if (out.has("No LTL Property violations detected")) return "pass";
        if (out.has("Trace to DEADLOCK")) return "deadlock";
        if (out.has("Trace to property violation in " + name + ":")) return "violated";
        if (out.has("Trace to property violation")) return "error-state";
        if (out.has("No deadlocks/errors")) return "pass";
        return "unknown: " + out.text;
    }

    static int[] compose() {
        Out out = new Out();
        CompositeState cs = compile(out);
        cs.compose(out);
        CompactState c = cs.composition;
        if (c == null) return new int[] {0, 0};
        return new int[] {c.getMaxStates(), c.ntransitions()};
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }

    static final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(null, r, "ltsa", 1L << 28);
        t.setDaemon(true);
        return t;
    });
    static long stepMillis = 10_000;
    static final Map<String, String> fields = new LinkedHashMap<>();

    /** Unwinds one request once its line is printed. */
    static final class Done extends RuntimeException {
        Done() {
            super(null, null, false, false);
        }
    }

    /**
     * Runs one step. A compile error or a crash ends the request (its line is printed); an
     * overrun ends the process too, since LTSA's statics and the stuck thread cannot be trusted.
     */
    static <T> T step(String key, Callable<T> body) {
        Future<T> f = pool.submit(body);
        try {
            return f.get(stepMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            fields.put(key, json("timeout"));
            finish();
            Runtime.getRuntime().halt(0);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof LTSException && key.equals("compile")) {
                fields.put(key, json("error: " + c.getMessage()));
            } else {
                fields.put(key, json("crash: " + c));
            }
        } catch (InterruptedException e) {
            fields.put(key, json("interrupted"));
        }
        finish();
        throw new Done();
    }

    static void finish() {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> e : fields.entrySet()) {
            if (b.length() > 1) b.append(',');
            b.append(json(e.getKey())).append(':').append(e.getValue());
        }
        System.out.println(b.append('}'));
        System.out.flush();
    }

    /** Answers one request: the model at `path`, its target, the steps to run. */
    static void request(String path, String tgt, String stepList) throws Exception {
        fields.clear();
        byte[] bytes = Files.readAllBytes(Paths.get(path));
        source = new String(bytes, StandardCharsets.ISO_8859_1) + "\n";
        target = tgt;
        dir = Paths.get(path).toAbsolutePath().getParent().toString();
        List<String> steps = Arrays.asList(stepList.split(","));
        // Compile once to learn the assertions' names (and refuse what LTSA refuses).
        String[] names = step("compile", () -> {
            compile(new Out());
            String[] n = new AssertDefinition().getNames();
            return n == null ? new String[0] : n;
        });
        fields.put("compile", json("ok"));
        Arrays.sort(names);
        if (steps.contains("safety")) {
            fields.put("safety", json(step("safety", LtsaDriver::safety)));
        }
        if (steps.contains("progress")) {
            fields.put("progress", json(step("progress", LtsaDriver::progress)));
        }
        if (steps.contains("asserts")) {
            List<String> asserts = new ArrayList<>();
            for (String name : names) {
                String v = step("assert:" + name, () -> ltl(name));
                asserts.add(json(name) + ":" + json(v));
            }
            fields.put("asserts", "{" + String.join(",", asserts) + "}");
        }
        if (steps.contains("compose")) {
            int[] counts = step("compose", LtsaDriver::compose);
            fields.put("states", Integer.toString(counts[0]));
            fields.put("transitions", Integer.toString(counts[1]));
        }
        finish();
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--serve")) {
            // One request a line on stdin, "PATH<TAB>TARGET<TAB>STEPS"; one JSON line back each.
            stepMillis = (long) (Double.parseDouble(args[1]) * 1000);
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.split("\t");
                try {
                    request(f[0], f[1], f[2]);
                } catch (Done d) {
                    // already answered
                }
            }
            Runtime.getRuntime().halt(0);
        }
        if (args.length > 2) stepMillis = (long) (Double.parseDouble(args[2]) * 1000);
        try {
            request(args[0], args[1], args.length > 3 ? args[3] : "safety,progress,asserts,compose");
        } catch (Done d) {
            // already answered
        }
        Runtime.getRuntime().halt(0);
    }
}
