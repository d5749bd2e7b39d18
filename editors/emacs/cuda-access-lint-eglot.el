;;; cuda-access-lint-eglot.el --- cuda-access-lint through eglot -*- lexical-binding: t -*-
;;
;; Eglot (built into Emacs 29; Debian 12: elpa-eglot) runs one server per
;; buffer: this makes cuda-access-lint the server of CUDA buffers. For
;; clangd beside it in the same buffer, use lsp-mode
;; (cuda-access-lint-lsp-mode.el). "-p build": the directory of CMake's
;; compile_commands.json, relative to the project root.

;; A CUDA mode: cuda-mode from MELPA, or C++ mode under that name.
(unless (fboundp 'cuda-mode)
  (define-derived-mode cuda-mode c++-mode "CUDA"))
(add-to-list 'auto-mode-alist '("\\.cuh?\\'" . cuda-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(cuda-mode . ("cuda-access-lint" "--lsp" "-p" "build"))))
(add-hook 'cuda-mode-hook #'eglot-ensure)
