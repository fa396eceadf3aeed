/* One file: the Stripe.js stand-in is served to the browser as is, one script like js.stripe.com's. */
/* eslint-disable @typescript-eslint/no-this-alias -- plain ES5 served as is (no build step): closures keep `self`. */
/*
 * Stripe.js stand-in served by stripe-local at /v3/ (never in production). It implements the part of
 * Stripe.js that Helix and @stripe/react-stripe-js use: Stripe(pk), elements() with card / cardNumber /
 * cardExpiry / cardCvc / postalCode / paymentRequestButton elements (plain inputs with stable
 * data-testids), createPaymentMethod, confirmCardSetup, confirmCardPayment, handleCardAction,
 * handleNextAction, retrieveSetupIntent, retrievePaymentIntent, paymentRequest (a test wallet that pays
 * with 4242 4242 4242 4242) and redirectToCheckout. 3-D Secure is a modal over the page with "Complete
 * authentication" and "Fail authentication", like Stripe's test challenge.
 */
(function () {
  'use strict';
  if (window.Stripe && window.Stripe.__stripeLocal) return;
  var script = document.currentScript;
  var BASE = script && script.src ? new URL(script.src).origin : window.location.origin;

  function encode(obj, prefix, out) {
    out = out || [];
    Object.keys(obj).forEach(function (key) {
      var value = obj[key];
      if (value === undefined || value === null) return;
      var name = prefix ? prefix + '[' + key + ']' : key;
      if (typeof value === 'object') encode(value, name, out);
      else out.push(encodeURIComponent(name) + '=' + encodeURIComponent(String(value)));
    });
    return out.join('&');
  }

  function Emitter() {
    this._handlers = {};
  }
  Emitter.prototype.on = function (event, handler) {
    (this._handlers[event] = this._handlers[event] || []).push(handler);
    return this;
  };
  Emitter.prototype.once = function (event, handler) {
    var self = this;
    function wrapped(e) {
      self.off(event, wrapped);
      handler(e);
    }
    return this.on(event, wrapped);
  };
  Emitter.prototype.off = function (event, handler) {
    var list = this._handlers[event] || [];
    this._handlers[event] = handler
      ? list.filter(function (h) {
          return h !== handler;
        })
      : [];
    return this;
  };
  Emitter.prototype._emit = function (event, payload) {
    (this._handlers[event] || []).slice().forEach(function (h) {
      try {
        h(payload);
      } catch (e) {
        setTimeout(function () {
          throw e;
        });
      }
    });
  };

  var digits = function (s) {
    return String(s || '').replace(/\D/g, '');
  };
  function luhn(number) {
    var sum = 0,
      dbl = false;
    for (var i = number.length - 1; i >= 0; i--) {
      var d = Number(number[i]);
      if (dbl) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      dbl = !dbl;
    }
    return sum % 10 === 0;
  }
  function brandOf(n) {
    if (/^4/.test(n)) return 'visa';
    if (/^(5[1-5]|2[2-7])/.test(n)) return 'mastercard';
    if (/^3[47]/.test(n)) return 'amex';
    if (/^6(011|5)/.test(n)) return 'discover';
    return 'unknown';
  }
  function parseExpiry(text) {
    var parts = String(text || '').split('/');
    var m = Number(digits(parts[0])),
      y = Number(digits(parts[1]));
    if (!parts[1] && digits(text).length >= 3) {
      var d = digits(text);
      m = Number(d.slice(0, 2));
      y = Number(d.slice(2));
    }
    if (y && y < 100) y += 2000;
    return { month: m, year: y };
  }
  function validationError(code, message) {
    return { type: 'validation_error', code: code, message: message };
  }

  var FIELDS = {
    number: {
      testid: 'card-number',
      placeholder: 'Card number',
      autocomplete: 'cc-number',
      inputmode: 'numeric',
    },
    expiry: { testid: 'card-expiry', placeholder: 'MM / YY', autocomplete: 'cc-exp', inputmode: 'numeric' },
    cvc: { testid: 'card-cvc', placeholder: 'CVC', autocomplete: 'cc-csc', inputmode: 'numeric' },
    postal: { testid: 'card-postal', placeholder: 'ZIP', autocomplete: 'postal-code', inputmode: 'text' },
  };
  var TYPE_FIELDS = {
    card: ['number', 'expiry', 'cvc', 'postal'],
    cardNumber: ['number'],
    cardExpiry: ['expiry'],
    cardCvc: ['cvc'],
    postalCode: ['postal'],
  };

  function fieldError(field, value) {
    var v = String(value || '').trim();
    if (field === 'number') {
      var n = digits(v);
      if (!n) return { empty: true };
      if (n.length < 15)
        return { incomplete: validationError('incomplete_number', 'Your card number is incomplete.') };
      if (!luhn(n)) return { error: validationError('invalid_number', 'Your card number is invalid.') };
      return {};
    }
    if (field === 'expiry') {
      if (!digits(v)) return { empty: true };
      var e = parseExpiry(v);
      if (!e.month || !e.year)
        return {
          incomplete: validationError('incomplete_expiry', "Your card's expiration date is incomplete."),
        };
      var now = new Date();
      if (e.month > 12)
        return { error: validationError('invalid_expiry_month', "Your card's expiration date is invalid.") };
      if (e.year < now.getFullYear() || (e.year === now.getFullYear() && e.month < now.getMonth() + 1))
        return {
          error: validationError('invalid_expiry_year_past', "Your card's expiration year is in the past."),
        };
      return {};
    }
    if (field === 'cvc') {
      if (!digits(v)) return { empty: true };
      if (digits(v).length < 3)
        return { incomplete: validationError('incomplete_cvc', "Your card's security code is incomplete.") };
      return {};
    }
    if (!v) return { empty: true };
    if (v.length < 3)
      return { incomplete: validationError('incomplete_zip', 'Your postal code is incomplete.') };
    return {};
  }

  function Element(group, type, options) {
    Emitter.call(this);
    this._group = group;
    this._type = type;
    this._options = options || {};
    this._inputs = {};
    this._container = null;
    this._destroyed = false;
  }
  Element.prototype = Object.create(Emitter.prototype);
  Element.prototype._fields = function () {
    var fields = TYPE_FIELDS[this._type] || [];
    if (this._type === 'card' && this._options.hidePostalCode)
      fields = fields.filter(function (f) {
        return f !== 'postal';
      });
    return fields;
  };
  Element.prototype.mount = function (target) {
    if (this._destroyed) throw new Error('This Element has already been destroyed. Please create a new one.');
    var node = typeof target === 'string' ? document.querySelector(target) : target;
    if (!node)
      throw new Error(
        'The selector you specified (' +
          target +
          ') applies to no DOM elements that are currently on the page.',
      );
    var self = this;
    this._container = document.createElement('div');
    this._container.className = 'StripeElement StripeElement--empty';
    this._container.setAttribute('data-testid', 'stripe-element-' + this._type);
    this._container.style.display = 'flex';
    this._container.style.gap = '6px';
    this._fields().forEach(function (field) {
      var spec = FIELDS[field];
      var input = document.createElement('input');
      input.setAttribute('data-testid', spec.testid);
      input.setAttribute('placeholder', spec.placeholder);
      input.setAttribute('autocomplete', spec.autocomplete);
      input.setAttribute('inputmode', spec.inputmode);
      input.setAttribute('aria-label', spec.placeholder);
      input.style.flex = field === 'number' ? '3' : '1';
      input.style.minWidth = '0';
      input.style.border = '0';
      input.style.outline = 'none';
      input.style.font = 'inherit';
      input.style.background = 'transparent';
      if (self._options.disabled) input.disabled = true;
      input.addEventListener('input', function () {
        self._changed();
      });
      input.addEventListener('focus', function () {
        self._container.classList.add('StripeElement--focus');
        self._emit('focus', { elementType: self._type });
      });
      input.addEventListener('blur', function () {
        self._container.classList.remove('StripeElement--focus');
        self._emit('blur', { elementType: self._type });
      });
      self._inputs[field] = input;
      self._container.appendChild(input);
    });
    if (this._type === 'paymentRequestButton') this._mountWallet();
    node.appendChild(this._container);
    setTimeout(function () {
      self._emit('ready', { elementType: self._type });
    });
  };
  Element.prototype._mountWallet = function () {
    var self = this;
    var request = this._options.paymentRequest;
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Pay with test wallet';
    button.setAttribute('data-testid', 'wallet-button');
    button.style.width = '100%';
    button.style.padding = '10px';
    button.style.background = '#000';
    button.style.color = '#fff';
    button.style.border = '0';
    button.style.borderRadius = '4px';
    button.style.cursor = 'pointer';
    button.addEventListener('click', function (event) {
      var clickEvent = {
        elementType: 'paymentRequestButton',
        defaultPrevented: false,
        preventDefault: function () {
          this.defaultPrevented = true;
        },
      };
      self._emit('click', clickEvent);
      if (!clickEvent.defaultPrevented && request) request.show();
      event.preventDefault();
    });
    this._container.appendChild(button);
  };
  Element.prototype._state = function () {
    var self = this,
      empty = true,
      complete = true,
      error;
    this._fields().forEach(function (field) {
      var r = fieldError(field, self._inputs[field] ? self._inputs[field].value : '');
      if (!r.empty) empty = false;
      if (r.empty || r.incomplete || r.error) complete = false;
      if (r.error && !error) error = r.error;
    });
    return { empty: empty, complete: complete, error: error };
  };
  Element.prototype._changed = function () {
    var s = this._state();
    var number = this._inputs.number ? digits(this._inputs.number.value) : '';
    this._container.classList.toggle('StripeElement--empty', s.empty);
    this._container.classList.toggle('StripeElement--complete', s.complete);
    this._container.classList.toggle('StripeElement--invalid', !!s.error);
    this._emit('change', {
      elementType: this._type,
      empty: s.empty,
      complete: s.complete,
      error: s.error,
      brand: number ? brandOf(number) : 'unknown',
      value: this._inputs.postal ? { postalCode: this._inputs.postal.value } : undefined,
    });
  };
  Element.prototype.unmount = function () {
    if (this._container && this._container.parentNode)
      this._container.parentNode.removeChild(this._container);
  };
  Element.prototype.destroy = function () {
    this.unmount();
    this._destroyed = true;
    this._group._remove(this);
  };
  Element.prototype.update = function (options) {
    var self = this;
    Object.keys(options || {}).forEach(function (k) {
      self._options[k] = options[k];
    });
    if (options && 'disabled' in options)
      Object.keys(this._inputs).forEach(function (f) {
        self._inputs[f].disabled = !!options.disabled;
      });
  };
  Element.prototype.focus = function () {
    var first = this._inputs[this._fields()[0]];
    if (first) first.focus();
  };
  Element.prototype.blur = function () {
    var self = this;
    Object.keys(this._inputs).forEach(function (f) {
      self._inputs[f].blur();
    });
  };
  Element.prototype.clear = function () {
    var self = this;
    Object.keys(this._inputs).forEach(function (f) {
      self._inputs[f].value = '';
    });
    if (this._container) this._changed();
  };
  Element.prototype.collapse = function () {};

  function Elements(stripe, options) {
    this._stripe = stripe;
    this._options = options || {};
    this._elements = [];
  }
  Elements.prototype.create = function (type, options) {
    if (!TYPE_FIELDS[type] && type !== 'paymentRequestButton')
      throw new Error('stripe-local: the ' + type + ' Element is not supported by the Stripe.js stand-in.');
    if (type !== 'paymentRequestButton' && this.getElement(type))
      throw new Error('Can only create one Element of type ' + type + '.');
    var element = new Element(this, type, options);
    this._elements.push(element);
    return element;
  };
  Elements.prototype.getElement = function (type) {
    var name = typeof type === 'string' ? type : type && type.__elementType;
    for (var i = 0; i < this._elements.length; i++)
      if (this._elements[i]._type === name) return this._elements[i];
    return null;
  };
  Elements.prototype._remove = function (element) {
    this._elements = this._elements.filter(function (e) {
      return e !== element;
    });
  };
  Elements.prototype._value = function (field) {
    for (var i = 0; i < this._elements.length; i++) {
      var input = this._elements[i]._inputs[field];
      if (input) return input.value;
    }
    return '';
  };
  Elements.prototype.update = function (options) {
    var self = this;
    Object.keys(options || {}).forEach(function (k) {
      self._options[k] = options[k];
    });
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.submit = function () {
    return Promise.resolve({});
  };

  function PaymentRequest(stripe, options) {
    Emitter.call(this);
    this._stripe = stripe;
    this._options = options || {};
    this._showing = false;
  }
  PaymentRequest.prototype = Object.create(Emitter.prototype);
  PaymentRequest.prototype.canMakePayment = function () {
    return Promise.resolve({ applePay: false, googlePay: true, link: false });
  };
  PaymentRequest.prototype.update = function (options) {
    var self = this;
    Object.keys(options || {}).forEach(function (k) {
      self._options[k] = options[k];
    });
  };
  PaymentRequest.prototype.isShowing = function () {
    return this._showing;
  };
  PaymentRequest.prototype.abort = function () {
    this._showing = false;
    this._emit('cancel', {});
  };
  PaymentRequest.prototype.show = function () {
    var self = this;
    this._showing = true;
    var year = new Date().getFullYear() + 5;
    this._stripe
      ._request('POST', '/v1/payment_methods', {
        type: 'card',
        card: { number: '4242424242424242', exp_month: 12, exp_year: year, cvc: '123' },
        billing_details: { name: 'Test Wallet', email: 'wallet@example.com' },
        _wallet: 'google_pay',
      })
      .then(function (result) {
        if (result.error) {
          self._showing = false;
          self._emit('cancel', {});
          return;
        }
        self._emit('paymentmethod', {
          paymentMethod: result.body,
          walletName: 'googlePay',
          methodName: 'https://google.com/pay',
          payerName: 'Test Wallet',
          payerEmail: 'wallet@example.com',
          complete: function () {
            self._showing = false;
          },
        });
      });
  };

  function showChallenge(label) {
    return new Promise(function (resolve) {
      var overlay = document.createElement('div');
      overlay.setAttribute('data-testid', 'three-ds-modal');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-label', '3D Secure 2 Test Page');
      overlay.style.cssText =
        'position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:2147483647;display:flex;align-items:center;justify-content:center;font-family:sans-serif';
      var box = document.createElement('div');
      box.style.cssText =
        'background:#fff;border-radius:8px;padding:24px;width:360px;max-width:90vw;text-align:center';
      box.innerHTML = '<h2 style="margin-top:0">3D Secure 2 Test Page</h2><p style="color:#555"></p>';
      box.querySelector('p').textContent = 'Authenticate ' + label + '. This is a test challenge.';
      function button(text, testid, color, passed) {
        var b = document.createElement('button');
        b.type = 'button';
        b.textContent = text;
        b.setAttribute('data-testid', testid);
        b.style.cssText =
          'display:block;width:100%;margin-top:10px;padding:10px;border:0;border-radius:4px;color:#fff;cursor:pointer;background:' +
          color;
        b.addEventListener('click', function () {
          document.body.removeChild(overlay);
          resolve(passed);
        });
        box.appendChild(b);
      }
      button('Complete authentication', 'three-ds-complete', '#635bff', true);
      button('Fail authentication', 'three-ds-fail', '#df1b41', false);
      overlay.appendChild(box);
      document.body.appendChild(overlay);
    });
  }

  function Stripe(key, options) {
    if (!(this instanceof Stripe)) return new Stripe(key, options);
    if (typeof key !== 'string' || !/^pk_/.test(key))
      throw new Error(
        'Invalid value for Stripe(): apiKey should be a publishable key (pk_...). You passed: ' + key,
      );
    this._key = key;
    this._options = options || {};
  }
  Stripe.version = 'endive';
  Stripe.__stripeLocal = true;
  var proto = Stripe.prototype;
  proto._registerWrapper = function () {};
  proto.registerAppInfo = function () {};
  proto.elements = function (options) {
    return new Elements(this, options);
  };
  proto.paymentRequest = function (options) {
    return new PaymentRequest(this, options);
  };

  proto._request = function (method, path, params) {
    var init = {
      method: method,
      headers: { Authorization: 'Bearer ' + this._key, 'Stripe-Version': '2026-10-28.endive' },
    };
    var url = BASE + path;
    if (method === 'GET') url += '?' + encode(params || {});
    else {
      init.headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = encode(params || {});
    }
    return fetch(url, init).then(
      function (res) {
        return res.json().then(function (body) {
          return res.ok
            ? { body: body }
            : { error: body.error || { type: 'api_error', message: 'Unexpected error' } };
        });
      },
      function () {
        return {
          error: {
            type: 'api_connection_error',
            message: 'We could not connect to Stripe (stripe-local at ' + BASE + ').',
          },
        };
      },
    );
  };

  function groupOf(element) {
    return element && element._group;
  }

  proto._paymentMethodFrom = function (data) {
    // data: 'pm_...' | { card: Element, billing_details } | { elements, params }
    if (!data)
      return Promise.resolve({
        error: validationError('missing_payment_method', 'A payment method is required.'),
      });
    if (typeof data === 'string') return Promise.resolve({ id: data });
    var element =
      data.card ||
      (data.elements && (data.elements.getElement('card') || data.elements.getElement('cardNumber')));
    var group = groupOf(element);
    if (!group)
      return Promise.resolve({
        error: validationError('invalid_element', 'Please provide a mounted card Element.'),
      });
    var problems = group._elements.map(function (e) {
      return e._state();
    });
    var anyError = null;
    problems.forEach(function (s) {
      if (!anyError && s.error) anyError = s.error;
    });
    if (!anyError) {
      ['number', 'expiry', 'cvc'].forEach(function (f) {
        if (anyError) return;
        var r = fieldError(f, group._value(f));
        if (r.empty || r.incomplete)
          anyError =
            r.incomplete ||
            validationError(
              'incomplete_' + (f === 'expiry' ? 'expiry' : f),
              f === 'number'
                ? 'Your card number is incomplete.'
                : f === 'expiry'
                  ? "Your card's expiration date is incomplete."
                  : "Your card's security code is incomplete.",
            );
      });
    }
    if (anyError) return Promise.resolve({ error: anyError });
    var expiry = parseExpiry(group._value('expiry'));
    var billing = data.billing_details || (data.params && data.params.billing_details) || {};
    var postal = group._value('postal');
    if (postal)
      billing = Object.assign({}, billing, {
        address: Object.assign({}, billing.address || {}, { postal_code: postal }),
      });
    return this._request('POST', '/v1/payment_methods', {
      type: 'card',
      card: {
        number: digits(group._value('number')),
        exp_month: expiry.month,
        exp_year: expiry.year,
        cvc: digits(group._value('cvc')),
      },
      billing_details: billing,
    }).then(function (r) {
      return r.error ? { error: r.error } : { id: r.body.id, paymentMethod: r.body };
    });
  };

  proto.createPaymentMethod = function (a, b) {
    var data = typeof a === 'string' ? Object.assign({ type: a }, { card: b }) : a;
    if (data && data.elements && data.params)
      data = { elements: data.elements, billing_details: data.params.billing_details };
    return this._paymentMethodFrom(data).then(function (r) {
      return r.error ? { error: r.error } : { paymentMethod: r.paymentMethod };
    });
  };

  var kindOf = function (clientSecret) {
    return /^seti_/.test(clientSecret) ? 'setup' : 'payment';
  };
  var idOf = function (clientSecret) {
    return String(clientSecret).split('_secret_')[0];
  };
  var pathOf = function (kind, id) {
    return (kind === 'setup' ? '/v1/setup_intents/' : '/v1/payment_intents/') + id;
  };

  proto._retrieve = function (clientSecret) {
    var kind = kindOf(clientSecret);
    return this._request('GET', pathOf(kind, idOf(clientSecret)), { client_secret: clientSecret });
  };

  proto._wrap = function (kind, r) {
    if (r.error) return { error: r.error };
    return kind === 'setup' ? { setupIntent: r.body } : { paymentIntent: r.body };
  };

  proto._handleAction = function (clientSecret, intent) {
    var self = this;
    var kind = kindOf(clientSecret);
    if (!intent || intent.status !== 'requires_action')
      return Promise.resolve(self._wrap(kind, { body: intent }));
    var label =
      kind === 'setup'
        ? 'your card'
        : (intent.amount / 100).toFixed(2) + ' ' + String(intent.currency).toUpperCase();
    return showChallenge(label).then(function (passed) {
      return fetch(BASE + '/3ds/' + intent.id + '/' + (passed ? 'complete' : 'fail'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'client_secret=' + encodeURIComponent(clientSecret),
      })
        .then(function () {
          return self._retrieve(clientSecret);
        })
        .then(function (r) {
          if (r.error) return { error: r.error };
          var after = r.body;
          if (
            after.status === 'succeeded' ||
            after.status === 'processing' ||
            after.status === 'requires_capture'
          )
            return self._wrap(kind, { body: after });
          var err = after.last_setup_error || after.last_payment_error || {};
          var error = {
            type: err.type || 'invalid_request_error',
            code:
              err.code ||
              (kind === 'setup'
                ? 'setup_intent_authentication_failure'
                : 'payment_intent_authentication_failure'),
            message:
              err.message ||
              'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
          };
          error[kind === 'setup' ? 'setup_intent' : 'payment_intent'] = after;
          return { error: error };
        });
    });
  };

  proto._confirm = function (kind, clientSecret, data, options) {
    var self = this;
    if (typeof clientSecret !== 'string' || clientSecret.indexOf('_secret_') < 0)
      return Promise.reject(
        new Error(
          'Invalid value for ' +
            (kind === 'setup' ? 'confirmCardSetup' : 'confirmCardPayment') +
            ': clientSecret should be a client secret.',
        ),
      );
    data = data || {};
    var pmData = data.payment_method;
    var pm = pmData ? this._paymentMethodFrom(pmData) : Promise.resolve({ id: undefined });
    return pm.then(function (p) {
      if (p.error) return { error: p.error };
      var params = { client_secret: clientSecret, use_stripe_sdk: true };
      if (p.id) params.payment_method = p.id;
      if (data.setup_future_usage) params.setup_future_usage = data.setup_future_usage;
      return self._request('POST', pathOf(kind, idOf(clientSecret)) + '/confirm', params).then(function (r) {
        if (r.error) return { error: r.error };
        if (options && options.handleActions === false) return self._wrap(kind, r);
        return self._handleAction(clientSecret, r.body);
      });
    });
  };

  proto.confirmCardSetup = function (clientSecret, data, options) {
    return this._confirm('setup', clientSecret, data, options);
  };
  proto.confirmCardPayment = function (clientSecret, data, options) {
    return this._confirm('payment', clientSecret, data, options);
  };
  proto.handleCardAction = function (clientSecret) {
    var self = this;
    return this._retrieve(clientSecret).then(function (r) {
      return r.error ? { error: r.error } : self._handleAction(clientSecret, r.body);
    });
  };
  proto.handleCardSetup = proto.confirmCardSetup;
  proto.handleNextAction = function (options) {
    return this.handleCardAction(options && options.clientSecret);
  };
  proto.retrieveSetupIntent = function (clientSecret) {
    var self = this;
    return this._retrieve(clientSecret).then(function (r) {
      return self._wrap('setup', r);
    });
  };
  proto.retrievePaymentIntent = function (clientSecret) {
    var self = this;
    return this._retrieve(clientSecret).then(function (r) {
      return self._wrap('payment', r);
    });
  };
  // Helix uses PaymentMethods; @stripe/react-stripe-js only checks that createToken exists.
  proto.createToken = function () {
    return Promise.resolve({
      error: {
        type: 'invalid_request_error',
        message: 'Tokens are not supported by stripe-local: use createPaymentMethod.',
      },
    });
  };
  proto.redirectToCheckout = function (options) {
    if (!options || !options.sessionId)
      return Promise.resolve({ error: { type: 'invalid_request_error', message: 'sessionId is required.' } });
    window.location.assign(BASE + '/c/pay/' + encodeURIComponent(options.sessionId));
    return new Promise(function () {});
  };

  window.Stripe = Stripe;
})();
