;;; In `emacs --batch`, after the lsp-mode snippet: opens k.cu with clangd
;;; and cuda-access-lint attached, waits until both servers' diagnostics
;;; are in, prints them as "<server>: <line>: <message>", exits 1 when one
;;; never came.
(require 'lsp-mode)
(require 'lsp-clangd)
(setq lsp-enable-snippet nil
      lsp-modeline-workspace-status-enable nil
      lsp-modeline-code-actions-enable nil
      lsp-modeline-diagnostics-enable nil
      lsp-headerline-breadcrumb-enable nil
      lsp-lens-enable nil
      lsp-session-file (expand-file-name "lsp-session" (getenv "HOME"))
      lsp-auto-guess-root nil
      lsp-enable-file-watchers nil
      lsp-diagnostics-provider :none
      lsp-restart 'ignore
      lsp-warn-no-matched-clients nil)
(lsp-workspace-folders-add default-directory)
(find-file (expand-file-name "k.cu"))
(lsp)
(defun cal-test-diagnostics ()
  "The diagnostics of k.cu, by server id."
  (let (out)
    (dolist (ws (lsp-workspaces))
      (let* ((id (lsp--client-server-id (lsp--workspace-client ws)))
             (diags (gethash (buffer-file-name) (lsp--workspace-diagnostics ws))))
        (when diags (push (cons id diags) out))))
    out))
(let ((deadline (+ (float-time) 120)))
  (while (and (< (length (cal-test-diagnostics)) 2) (< (float-time) deadline))
    (accept-process-output nil 0.2)))
(let ((all (cal-test-diagnostics)))
  (dolist (server '(clangd cuda-access-lint))
    (dolist (d (cdr (assq server all)))
      (princ (format "%s: %d: %s\n" server
                     (1+ (lsp:position-line (lsp:range-start (lsp:diagnostic-range d))))
                     (car (split-string (lsp:diagnostic-message d) "\n"))))))
  (kill-emacs (if (= (length all) 2) 0 1)))
