ensure_packages ['vim']
# <- error[idem-expression]: This Name has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)
