;;; In `emacs --batch`, after the eglot snippet: opens k.cu, waits for the
;;; server's diagnostics (flymake), prints them as "<server>: <line>:
;;; <message>", exits 1 when none came.
(require 'eglot)
(require 'flymake)
(setq eglot-sync-connect 30)
(find-file (expand-file-name "k.cu"))
(unless eglot--managed-mode
  (apply #'eglot (eglot--guess-contact)))
(let ((deadline (+ (float-time) 90)))
  (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
    (accept-process-output nil 0.2)))
(dolist (d (flymake-diagnostics))
  (princ (format "cuda-access-lint: %d: %s\n"
                 (line-number-at-pos (flymake-diagnostic-beg d))
                 (car (split-string (flymake-diagnostic-text d) "\n")))))
(kill-emacs (if (flymake-diagnostics) 0 1))
