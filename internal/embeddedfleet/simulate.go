package embeddedfleet

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
)

// Trace is what simulate's flags say of a run of several clusters.
type Trace struct {
	Format     string
	Until      time.Duration
	Seed       int64
	ExitStatus bool
}

// Simulate runs sc's clusters at full speed on their one clock and writes
// one trace of them all to out, in time order, each line naming its
// cluster: "cluster":"eu-west" in JSONL, a CLUSTER column in the table.
// live (a kubectl connection flag) is refused: the clusters are the
// scenario's.
func Simulate(ctx context.Context, out io.Writer, sc *scenario.Scenario, live bool, o Trace) error {
	if live {
		return refuse(sc)
	}
	format := trace.Format(o.Format)
	bufs := make([]*bytes.Buffer, len(sc.Clusters))
	writers := map[string]*trace.Writer{}
	for i, c := range sc.Clusters {
		bufs[i] = &bytes.Buffer{}
		tw := trace.New(bufs[i], format, embedded.Epoch, c.NodeGroups)
		tw.NodeLinesPerInstant()
		tw.Script(c.Actions)
		tw.Home(c.Namespace)
		writers[c.Cluster] = tw
	}
	cs, err := embedded.BootClusters(ctx, sc, Backend, func(name string) embedded.Options {
		tw := writers[name]
		return embedded.Options{Seed: o.Seed, ExitStatus: o.ExitStatus, ChangeObservers: []sim.ChangeObserver{tw.ObserveChange}, OnAction: tw.Action, Headless: true}
	})
	if err != nil {
		// As a scenario that cannot start on one cluster: bad input.
		return badInput{err}
	}
	defer cs.Close()
	reason, runErr := cs.Run(ctx, o.Until)
	for _, c := range sc.Clusters {
		tw := writers[c.Cluster]
		tw.End(cs.Clock().Now(), reason)
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(out)
	merge(w, sc.ClusterNames(), bufs, format == trace.Table)
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing the trace: %w", err)
	}
	return runErr
}

// merge writes the clusters' traces as one, in time order (a cluster's
// own lines keep theirs; at the same time, clusters in file order), each
// line with its cluster.
func merge(w io.Writer, names []string, bufs []*bytes.Buffer, table bool) {
	width := len("CLUSTER")
	for _, n := range names {
		width = max(width, len(n))
	}
	lines := make([][]string, len(bufs))
	for i, b := range bufs {
		lines[i] = strings.SplitAfter(b.String(), "\n")
		if last := len(lines[i]) - 1; lines[i][last] == "" {
			lines[i] = lines[i][:last]
		}
		if table && len(lines[i]) > 0 {
			if i == 0 {
				fmt.Fprintf(w, "%-*s  %s", width, "CLUSTER", lines[i][0])
			}
			lines[i] = lines[i][1:]
		}
	}
	for {
		pick, at := -1, 0.0
		for i, ls := range lines {
			if len(ls) == 0 {
				continue
			}
			if t := lineTime(ls[0], table); pick < 0 || t < at {
				pick, at = i, t
			}
		}
		if pick < 0 {
			return
		}
		line := lines[pick][0]
		lines[pick] = lines[pick][1:]
		if table {
			fmt.Fprintf(w, "%-*s  %s", width, names[pick], line)
			continue
		}
		// {"t":12.0,… → {"t":12.0,"cluster":"eu-west",…
		if i := strings.IndexByte(line, ','); strings.HasPrefix(line, `{"t":`) && i > 0 {
			line = line[:i+1] + `"cluster":` + strconv.Quote(names[pick]) + "," + line[i+1:]
		}
		io.WriteString(w, line)
	}
}

// lineTime is the virtual seconds a trace line is stamped with.
func lineTime(line string, table bool) float64 {
	var field string
	if table {
		if f := strings.Fields(line); len(f) > 0 {
			field = f[0]
		}
	} else if rest, ok := strings.CutPrefix(line, `{"t":`); ok {
		field, _, _ = strings.Cut(rest, ",")
	}
	t, _ := strconv.ParseFloat(field, 64)
	return t
}
