;;; cuda-access-clangd-eglot.el --- clangd with cuda-access-lint in eglot -*- lexical-binding: t -*-
;;
;; Eglot runs one server per buffer: `cuda-access-lint --clangd' is that
;; server, clangd (clangd-22, else clangd) behind it on the translated
;; compile database (so clangd parses nvcc projects), with the bank
;; conflicts, quick fixes and hover facts merged into clangd's session.
;; clangd's own arguments go after "--".

;; A CUDA mode: cuda-mode from MELPA, or C++ mode under that name.
(unless (fboundp 'cuda-mode)
  (define-derived-mode cuda-mode c++-mode "CUDA"))
(add-to-list 'auto-mode-alist '("\\.cuh?\\'" . cuda-mode))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((c-mode c++-mode cuda-mode) . ("cuda-access-lint" "--clangd"))))
(add-hook 'cuda-mode-hook #'eglot-ensure)
