package web

import (
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"strings"
)

// TokenHeader carries the session token on every state-changing request.
const TokenHeader = "X-Fumibako-Token"

// contentSecurityPolicy allows nothing but the server's own assets: no
// inline script, no external request, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// guard applies the rules every request passes (issue 8, "Safety"):
//
//   - the Host header must name the server: its port, and "localhost" or an
//     IP literal (a loopback one when the server listens on loopback), so a
//     DNS-rebinding page under a foreign name gets nothing;
//   - an Origin header, when present, must be the server's own origin, so
//     no other site can drive the API with the user's browser;
//   - API requests that the browser marks as cross-site or same-site (an
//     application on another port) are refused.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		if !s.hostAllowed(r.Host) {
			writeError(w, http.StatusForbidden, "foreign Host header refused")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			writeError(w, http.StatusForbidden, "foreign Origin refused")
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			switch r.Header.Get("Sec-Fetch-Site") {
			case "", "same-origin", "none":
			default:
				writeError(w, http.StatusForbidden, "cross-site request refused")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a Host header names this server.
func (s *Server) hostAllowed(host string) bool {
	s.addrMu.RLock()
	addr := s.addr
	s.addrMu.RUnlock()
	if addr == "" {
		return false
	}
	_, wantPort, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil || port != wantPort {
		return false
	}
	loopbackOnly := isLoopbackAddr(addr)
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	if ip == nil {
		return false
	}
	return !loopbackOnly || ip.IsLoopback()
}

// isLoopbackAddr reports whether a listen address is a loopback one.
func isLoopbackAddr(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// needToken refuses a request without the session token or without a JSON
// body type (an HTML form cannot send either).
func (s *Server) needToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get(TokenHeader)
		if subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
			writeError(w, http.StatusForbidden, "missing or wrong session token")
			return
		}
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "JSON body required")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameMachine reports whether the request comes from this machine (the
// only case where the server opens files with the desktop's applications).
func sameMachine(r *http.Request) bool {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
