package kubelet

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"rollscope/model"
)

// LogServer is the part of a kubelet's HTTPS API that `kubectl logs` needs:
// /containerLogs/{namespace}/{pod}/{container}, served from Logs over TLS
// with a self-signed certificate on a loopback port. A real API server
// started without --kubelet-certificate-authority does not verify the
// kubelet's certificate (upstream's KubeletClientConfig uses an insecure
// transport when it has no CA), so its pods/log subresource reaches hollow
// nodes whose status advertises this address (nodegroup.Group.Kubelet).
type LogServer struct {
	Logs *Logs
	ln   net.Listener
	srv  *http.Server
}

// ListenLogs opens the server's port on 127.0.0.1; Serve answers on it.
func ListenLogs(logs *Logs) (*LogServer, error) {
	cert, err := selfSigned()
	if err != nil {
		return nil, fmt.Errorf("hollow kubelet: make a serving certificate: %w", err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	if err != nil {
		return nil, fmt.Errorf("hollow kubelet: listen for log requests: %w", err)
	}
	s := &LogServer{Logs: logs, ln: ln}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /containerLogs/{namespace}/{pod}/{container}", s.containerLogs)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// IP and Port are where the server answers, for the nodes to advertise.
func (s *LogServer) IP() string { return "127.0.0.1" }

func (s *LogServer) Port() int32 { return int32(s.ln.Addr().(*net.TCPAddr).Port) }

// Serve answers until ctx ends.
func (s *LogServer) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() { _ = s.srv.Close() })
	defer stop()
	if err := s.srv.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// containerLogs answers as the kubelet's handler does: the log as it is
// written, flushed line by line while following; a refusal as the status
// code and the kubelet's message.
func (s *LogServer) containerLogs(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := model.LogRequest{
		Namespace: r.PathValue("namespace"), Pod: r.PathValue("pod"), Container: r.PathValue("container"),
		Follow: q.Get("follow") == "true", Previous: q.Get("previous") == "true",
	}
	if tail := q.Get("tailLines"); tail != "" {
		n, err := strconv.ParseInt(tail, 10, 64)
		if err != nil || n < 0 {
			http.Error(w, fmt.Sprintf("tailLines %q is not a whole number of lines", tail), http.StatusBadRequest)
			return
		}
		req.TailLines = n
	}
	rc, err := s.Logs.Open(r.Context(), req)
	if err != nil {
		code := http.StatusBadRequest
		if apierrors.IsNotFound(err) {
			code = http.StatusNotFound
		}
		http.Error(w, strings.TrimSpace(err.Error()), code)
		return
	}
	defer rc.Close()
	w.Header().Set("Content-Type", "text/plain")
	flusher, _ := w.(http.Flusher)
	buf := make([]byte, 32*1024)
	for {
		n, err := rc.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}

// selfSigned is a throwaway certificate for 127.0.0.1.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "rollscope hollow kubelet"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
