package watch

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// TestPodsAreWatchedOverHTTP1: the pods client asks for HTTP/1.1 from a
// server that offers HTTP/2, which the console's other clients use.
func TestPodsAreWatchedOverHTTP1(t *testing.T) {
	var mu sync.Mutex
	protos := map[string]string{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		protos[r.URL.Path] = r.Proto
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL, TLSClientConfig: rest.TLSClientConfig{
		CAData: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})}}

	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Pods("other").List(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	pods, err := newSlimPods(cfg, client, "default", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pods.List(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := protos["/api/v1/namespaces/other/pods"]; got != "HTTP/2.0" {
		t.Fatalf("the server was asked in %q by client-go's own client, want HTTP/2.0 (else this test proves nothing)", got)
	}
	if got := protos["/api/v1/namespaces/default/pods"]; got != "HTTP/1.1" {
		t.Errorf("the pods client asked in %q, want HTTP/1.1", got)
	}
}

// BenchmarkPodWatchEvent sends pod watch events as an API server does —
// protobuf frames over TLS, flushed one by one, a little apart as in a
// rollout — and reads them through the pods client's watch, over HTTP/2 (as
// client-go's clients do) and over HTTP/1.1 (as the pods client does). It
// reports the process's CPU time per event (server and client: the server's
// share is the same in both).
//
//	go test ./kube/watch -run '^$' -bench PodWatchEvent -benchtime 20000x
func BenchmarkPodWatchEvent(b *testing.B) {
	real := &corev1.Pod{}
	if err := json.Unmarshal([]byte(realPod), real); err != nil {
		b.Fatal(err)
	}
	frame := watchFrames(b, apiwatch.Event{Type: apiwatch.Modified, Object: real})[0]
	var framed bytes.Buffer
	if _, err := protobufStream(b).Framer.NewFrameWriter(&framed).Write(frame); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		proto []string
	}{{"HTTP2", []string{"h2", "http/1.1"}}, {"HTTP1", nil}} {
		b.Run(c.name, func(b *testing.B) {
			events := b.N
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", protobufMediaType+";stream=watch")
				w.WriteHeader(http.StatusOK)
				flusher := w.(http.Flusher)
				for i := range events {
					if _, err := w.Write(framed.Bytes()); err != nil {
						return
					}
					flusher.Flush()
					if i%4 == 3 {
						time.Sleep(200 * time.Microsecond)
					}
				}
			}))
			srv.EnableHTTP2 = true
			srv.StartTLS()
			defer srv.Close()
			cfg := &rest.Config{Host: srv.URL, TLSClientConfig: rest.TLSClientConfig{NextProtos: c.proto,
				CAData: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})}}
			pods, err := newSlimPods(cfg, nil, "default", nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			before := cpuTime()
			w, err := pods.Watch(context.Background(), metav1.ListOptions{})
			if err != nil {
				b.Fatal(err)
			}
			got := 0
			for e := range w.ResultChan() {
				if _, ok := e.Object.(*corev1.Pod); !ok {
					b.Fatalf("event %d: %s %T", got, e.Type, e.Object)
				}
				if got++; got == events {
					break
				}
			}
			w.Stop()
			b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(events), "cpu-ns/event")
		})
	}
}
