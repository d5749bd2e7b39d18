;;; cuda-access-lint-lsp-mode.el --- cuda-access-lint beside clangd in lsp-mode -*- lexical-binding: t -*-
;;
;; lsp-mode runs add-on servers beside a buffer's main one: clangd for the
;; code, cuda-access-lint for how its warps touch memory. For an nvcc
;; project, first write a database clangd can read:
;;   cuda-access-lint -p build --export-compile-commands=build/clangd

;; A CUDA mode: cuda-mode from MELPA, or C++ mode under that name.
(unless (fboundp 'cuda-mode)
  (define-derived-mode cuda-mode c++-mode "CUDA"))
(add-to-list 'auto-mode-alist '("\\.cuh?\\'" . cuda-mode))

(with-eval-after-load 'lsp-mode
  ;; lsp-mode 8's clangd client activates on C and C++ only; clangd takes
  ;; the language from the compile command (-x cuda) anyway.
  (add-to-list 'lsp-language-id-configuration '(cuda-mode . "cpp"))
  (setq lsp-clients-clangd-args '("--compile-commands-dir=build/clangd"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection '("cuda-access-lint" "--lsp" "-p" "build"))
    :major-modes '(cuda-mode)
    :add-on? t
    :server-id 'cuda-access-lint)))
(add-hook 'cuda-mode-hook #'lsp-deferred)
