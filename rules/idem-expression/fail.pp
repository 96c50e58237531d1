ensure_packages ['vim']
# <- error[idem-expression]: This Name has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)

class demo::idem {
  $packages = ['vim']
  $packages
# ^ error[idem-expression]: This Variable has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)
  notice('done')
}

class demo::idem_if (Boolean $enabled) {
  if $enabled { }
# ^ error[idem-expression]: This 'if' statement has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)
  notice('done')
}
