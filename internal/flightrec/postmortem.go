package flightrec

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"rollscope/kube/recording"
	"rollscope/model/cluster"
)

// kindWords name the timeline's kinds in a postmortem.
var kindWords = map[cluster.TimelineKind]string{
	cluster.TimelineScale: "scale", cluster.TimelineCondition: "condition",
	cluster.TimelineEvent: "event", cluster.TimelineAction: "action",
}

// postmortemLine is one line of a postmortem, as jsonl writes it.
type postmortemLine struct {
	Time      time.Time `json:"time"`
	Namespace string    `json:"namespace"`
	Workload  string    `json:"workload"`
	Kind      string    `json:"kind"`
	Object    string    `json:"object,omitempty"`
	Message   string    `json:"message"`
	Warning   bool      `json:"warning,omitempty"`
	Sender    string    `json:"sender,omitempty"`
}

// Postmortem writes the recording's timeline of each Deployment — scale
// steps, condition changes, events, the console's actions with who sent
// them — as markdown or jsonl, from the picture at the recording's end.
func Postmortem(out io.Writer, path, format string) error {
	if format != "markdown" && format != "jsonl" {
		return badInput{fmt.Errorf("--format %s: give markdown or jsonl", format)}
	}
	tape, err := recording.Open(path)
	if err != nil {
		return badInput{err}
	}
	p := recording.NewPlayer(tape)
	p.Seek(tape.End())
	pic := p.NewPicture()
	senders := map[string]string{} // by the action's time and words
	for _, f := range tape.Frames {
		if a := f.Action; a != nil && a.User != "" {
			senders[a.Entry.Time.String()+a.Entry.Message] = a.User
		}
	}
	if format == "markdown" {
		fmt.Fprintf(out, "# Recording of %s, %s – %s\n", orDash(tape.Header.Context), tape.Start().Format(time.DateTime), tape.End().Format(time.DateTime))
		if tape.Problem != "" {
			fmt.Fprintf(out, "\n> %s\n", tape.Problem)
		}
	}
	enc := json.NewEncoder(out)
	for _, d := range pic.Deployments() {
		if format == "markdown" {
			fmt.Fprintf(out, "\n## deploy/%s in %s\n\n| time | what | object |\n|---|---|---|\n", d.Name, d.Namespace)
		}
		for _, e := range pic.Timeline(d.Namespace, d.Name) {
			l := postmortemLine{Time: e.Time, Namespace: d.Namespace, Workload: "deploy/" + d.Name, Kind: kindWords[e.Kind],
				Object: e.Object, Message: e.Message, Warning: e.Warning, Sender: senders[e.Time.String()+e.Message]}
			if format == "jsonl" {
				if err := enc.Encode(l); err != nil {
					return err
				}
				continue
			}
			what := strings.ReplaceAll(l.Message, "|", `\|`)
			if l.Sender != "" {
				what += " (sent by " + l.Sender + ")"
			}
			if l.Warning {
				what = "**" + what + "**"
			}
			fmt.Fprintf(out, "| %s | %s: %s | %s |\n", l.Time.Format(time.TimeOnly), l.Kind, what, l.Object)
		}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
