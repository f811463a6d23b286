package e2etest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"rollscope/engine/live"
	"rollscope/kube/prometheus"
)

// PrometheusBinary is Debian's prometheus, which the project's set-up
// installs (.ci/run) as it installs tmux.
const PrometheusBinary = "prometheus"

// Exporter serves the series a test drives in Prometheus's text format, for
// a real Prometheus to scrape: Set changes a series' value at once, Drop
// stops serving it.
type Exporter struct {
	URL    string
	mu     sync.Mutex
	series map[string]float64 // `name{labels}` → value
}

// StartExporter serves series on 127.0.0.1 until the test ends.
func StartExporter(t testing.TB) *Exporter {
	e := &Exporter{series: map[string]float64{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		keys := make([]string, 0, len(e.series))
		for k := range e.series {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		for _, k := range keys {
			fmt.Fprintf(w, "%s %g\n", k, e.series[k])
		}
	}))
	t.Cleanup(srv.Close)
	e.URL = srv.URL
	return e
}

// Set serves series (`error_rate{pod_template_hash="abc"}`) at value.
func (e *Exporter) Set(series string, value float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.series[series] = value
}

// Drop stops serving series: Prometheus marks it stale at its next scrape,
// and a query for it returns no sample.
func (e *Exporter) Drop(series string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.series, series)
}

// Prometheus is a real Prometheus on loopback scraping an exporter every
// second.
type Prometheus struct {
	URL  string
	stop func()
}

// StartPrometheus runs Prometheus scraping e every second, with its data
// in a temporary directory, and waits until it has scraped e once. It is
// stopped when the test ends, or by Stop.
func StartPrometheus(t testing.TB, e *Exporter, patience time.Duration) *Prometheus {
	t.Helper()
	bin, err := exec.LookPath(PrometheusBinary)
	if err != nil {
		t.Fatalf("no %s on PATH: `apt-get install prometheus` (the project's .ci/run installs it): %v", PrometheusBinary, err)
	}
	dir := t.TempDir()
	target := strings.TrimPrefix(e.URL, "http://")
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: canary\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ports, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	listen := fmt.Sprintf("127.0.0.1:%d", ports[0])
	logPath := filepath.Join(dir, "prometheus.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+listen, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	var once sync.Once
	p := &Prometheus{URL: "http://" + listen, stop: func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			<-exited
			logFile.Close()
		})
	}}
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("prometheus's last lines:\n%s", tail(logPath, 30))
		}
	})
	Poll(t, patience, "prometheus scraping the test exporter", func(ctx context.Context) (bool, string, error) {
		select {
		case <-exited:
			return false, "", fmt.Errorf("prometheus exited:\n%s", tail(logPath, 20))
		default:
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/api/v1/query?query=up", nil)
		if err != nil {
			return false, "", err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, err.Error(), nil
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return strings.Contains(b.String(), `"1"]`), b.String(), nil
	})
	return p
}

// MetricGates runs on c the console's controllers, its guided canaries'
// gates read from Prometheus as the live console reads them, with an
// exporter the test drives and a Prometheus scraping it, all stopped when
// the test ends.
func (c *Cluster) MetricGates(t testing.TB) (*Exporter, *Prometheus) {
	t.Helper()
	stop, err := live.StartConsoleControllers(t.Context(), c.Admin, prometheus.Metrics{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	e := StartExporter(t)
	return e, StartPrometheus(t, e, c.Patience)
}

// Stop kills Prometheus now: the metrics source going down mid-step.
func (p *Prometheus) Stop() { p.stop() }
