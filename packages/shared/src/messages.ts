// One file: every user-facing message verbatim, one catalogue as the specification asks.
/**
 * The specification's user-facing strings, verbatim (typos included: they are the contract).
 * Everything the UI or the API says to a person comes from here.
 */
export const MSG = {
  // generic
  defaultError: 'Opps, an error occurred!',
  somethingWentWrong: 'Something went wrong!',
  invalidToken: 'Invalid token',
  sessionExpired: 'Your session has ended, please log in again.',
  unauthorizedAccess: 'You are not allowed to do that.',
  notFound: 'Not found',
  tooManyRequests: 'Too many attempts, please wait a few minutes and try again.',
  invalidJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request body is too large.',
  bodyTooDeep: 'The request body is nested too deeply.',
  databaseBusy: 'The server is busy right now, please try again in a moment.',
  databaseUnavailable: 'The server cannot reach its database right now, please try again in a moment.',
  validationFailed: 'Some fields are not valid.',
  multipleLoginTitle: 'Logged in elsewhere',
  multipleLogin:
    'Your account can be used on one computer at a time. It was signed in on another computer, so this session has ended.',

  // login and sign-up (accounts 5)
  loginEmailRequired: 'Please enter your Email!',
  loginPasswordRequired: 'Please enter your password!',
  nameRequired: 'Please enter your name!',
  usernameRequired: 'Please enter your username!',
  usernameRule: 'Only lowercases letter followed by numbers are allowed',
  emailRequired: 'Please enter your email!',
  emailInvalid: 'The input is not valid E-mail!',
  passwordRequired: 'Please enter your password!',
  agreePrivacy: 'Please Agree To Privacy Policy',
  alreadyHaveAccount: 'Already have an account? Sign in here',
  invalidCredentials: 'The email or password is incorrect.',
  loginWait: 'Too many wrong passwords from this device. Please wait a moment and try again.',
  emailTaken: 'This email is already registered.',
  usernameTaken: 'This username is already taken.',
  inviteInvalid: 'This invitation link is invalid or has expired.',
  registrationSuccess: 'Registration Successfull!',
  loggedOut: 'You have been logged out.',

  // passwords
  passwordMin8: 'Password must be atleast 8 characters long!',
  passwordMismatch: 'Password does not match!',
  resetEmailSent: (email: string) => `An email has been sent to ${email}`,
  resetTokenInvalid: 'This password reset link is invalid or has expired.',
  passwordUpdated: 'Your password has been set. You can now log in.',

  // plans and payment
  selectPlan: 'Please select a plan to continue.',
  failedLoadSubscriptions: 'Failed to load Subscriptions',
  subscribedSuccess: 'Subscribed Successfully!',
  positiveIntegers: 'Only possitive integers are allowed',
  saveAnnual: 'Save 15% on annual subscription',
  paymentFailedBanner:
    'Your recent payment has failed, please click here to update your payment method to continue to have access to your embeded and linked models.',
  deactivatedBanner:
    'Your subscription to the current plan has been deactivated because of any following reason:',
  cancelledBanner: (at: string, until: string) =>
    `You have canceled your subscription at ${at}. Your subscription is valid till ${until}.`,

  // administration (administration-content 5 and 8)
  inviteNameRequired: 'Please enter the Name of User',
  inviteEmailRequired: 'Please enter the Email of User',
  addUserName: 'Please enter your name',
  // platform Add User: the school or organisation the new account is (wording ours, docs/seats.md)
  addUserTenantName: 'Please enter the school or organisation name',
  chooseSubscription: 'Please choose a subscription',
  choosePlan: 'Please choose a plan',
  modelNameRequired: 'Please enter the name of model',
  modelUrlNameRequired: 'Please enter model name to be added to the URL',
  roleNameRequired: 'Please input the name of role',
  roleNameTaken: 'Role Name already exists',
  noChange: 'No change in Data!',
  oldPasswordRequired: 'Please Enter Old Password!',
  newPasswordRequired: 'Please Enter new Password!',
  passwordMin6: 'Password should be minimum 6 characters!',
  newPasswordMismatch: 'New and confirm passwords that you entered do not match!',
  brandNameRequired: 'Please input your custom brand name',
  fileOver1mb: 'File size is more than 1mb',
  dimensionsOver1000: 'Image Dimensions are larger then 1000 x 1000 pixels',
  fileOver5mb: 'File size is more than 5mb',
  dimensionsOver4000: 'Image Dimensions are larger 4000 x 4000 pixels',
  usersLimitExceeds: 'Users Limit Exceeds',
  // seats (issue 28: say how many are left and what to do; wording ours, docs/seats.md)
  bulkSeatsLeft: (left: number, rows: number) =>
    `${left === 0 ? 'No seats are' : left === 1 ? '1 seat is' : `${left} seats are`} left on your plan for the ${rows} people in this file.`,
  seatsAddOnSubscription: 'Add users to your plan on the Subscription page to invite more.',
  seatsAskOwner: 'Ask the account owner to add users to the plan to invite more.',
  bulkSendFirst: (n: number) => `Send the first ${n}`,
  seatsFull: (limit: number) => `All ${limit} seats of your plan are taken.`,
  usersUploaded: 'Users Uploaded Successfully',
  failedLoadUsers: 'Failed to load Users',
  failedDeleteUser: 'Failed to delete User',
  failedInviteUser: 'Failed to invite User',
  failedLoadModels: 'Failed to load Models',
  failedLoadRoles: 'Failed to load Roles',
  failedLoadRolePermissions: "Failed to load the role's permissions",
  noRolePermissions: 'No permissions',
  failedGetTenants: 'Failed to get Tenants',
  addPositiveInteger: 'Please add positive integer',
  copied: 'Copied Successfully',
  roleCreated: 'New Role Created Successfully',
  roleUpdated: 'Role Updated Successfully',
  brandingUpdated: 'Branding updated successfully',
  userUpdated: 'user updated sucessfully',
  unsavedBranding: 'You did not save. Do you want to save now ?',
  deleteUserTitle: 'Are You Sure?',
  deleteUserBody: 'Do you want to delete this user?',
  deleteRoleTitle: 'Are you sure?',
  deleteRoleBody: 'Do you want to delete this role!',

  // added by the API (not in the specification; wording ours)
  unknownField: 'This field is not allowed.',
  invalidCharacters: 'This field contains characters that are not allowed.',
  inviteEmailMismatch: 'This invitation was sent to another email address.',
  googleDisabled: 'Google sign-in is not available.',
  tooLong: (max: number) => `Must be at most ${max} characters`,
  // plan cards (accounts 2: 'Try Starter, 30 days free, then $X')
  trialOffer: (plan: string, price: string) => `Try ${plan}, 30 days free, then ${price}`,
  // payment form (accounts 2: 'charged $ {amount} per year or month', by displayType)
  chargedPer: (amount: string, period: 'year' | 'month') => `charged $ ${amount} per ${period}`,
  orEnterPaymentDetails: 'or enter payment details',
  chargedNow: (amount: string) => `${amount} charged now`,
  // plan cards while a plan is in force (issue 28: no "charged now" on a trial's or a downgrade's card)
  currentPlanCharge: 'You are on this plan',
  viewsInvoiceDescription: (views: number) => `${views.toLocaleString('en-US')} additional views`,
  afterCredit: (credit: string) => `after ${credit} of credit for unused time`,
  changeChargeInPreview: 'What a change costs today is shown before you confirm',
  // plan wizard and billing screens (web; not in the specification, wording ours)
  userCountMin: (min: number) => `At least ${min} users are included in this plan`,
  confirmPlanChange: (plan: string) => `Change your plan to ${plan}?`,
  customPricingTitle: 'Custom Pricing',
  customPricingBody: 'More users, single sign-on or a custom contract? Talk to us.',
  deactivatedReasonCancelled: 'The subscription was cancelled manually.',
  deactivatedReasonPayment: 'The payment was not successful.',
  renewSubscription: 'Renew subscription',
  successRedirecting: 'Thank you! Your subscription is being updated; you will be taken on in a few seconds.',
  viewsPurchaseTotal: (blocks: number, total: string) =>
    `${(blocks * 1000).toLocaleString('en-US')} additional views for ${total}`,
  // money rules (issue 15; not in the specification, wording ours)
  billingOwnerOnly: 'Only the owner of this account can pay, change the plan or cancel it.',
  trialAlreadyUsed:
    'This card has already been used for a free trial, so the plan starts now and is charged today.',
  seatsFixed: 'This plan has a fixed number of users.',
  seatsBelowUsers: (users: number) =>
    `Your team has ${users} users: remove users before choosing fewer than ${users} seats.`,
  seatsAboveMax: (max: number) => `At most ${max.toLocaleString('en-US')} users are possible on this plan.`,
  noSubscriptionToChange: 'You have no subscription to change: choose a plan first.',
  alreadySubscribed: 'You already have a subscription: change your plan instead.',
  viewsNotForSale: 'Additional views are not available for your plan.',
  planChangePending: 'A change of your plan is waiting for its payment: complete it first.',
  paymentActionBanner: 'Your bank asks you to confirm a payment. Please click here to complete it.',
  cardDeclined: 'Your card was declined.',
  // billing screens of the web (issue 15; wording ours)
  cardAuthenticationFailed:
    'Your bank did not confirm this payment: the security check failed or was cancelled. Please try again or use another card.',
  cardPaymentFailed: 'The payment could not be completed. Please check the card details or use another card.',
  trialEndsCharged: (amount: string) => `Your trial ends and ${amount} is charged now.`,
  chargedNowAmount: (amount: string) => `${amount} is charged now.`,
  nothingChargedNow: 'Nothing is charged now.',
  creditedNow: (amount: string) => `${amount} is credited to your next invoices.`,
  nextChargeOn: (amount: string, date: string) => `Then ${amount} on ${date}.`,
  confirmingPayment: 'Confirming your payment with your bank…',
  planChanged: (plan: string) => `Your plan is now ${plan}.`,
  seatsChanged: (seats: number) => `Your plan now has ${seats} users.`,
  pendingChangeNotice: 'A change of your plan is waiting for its payment.',
  paymentStillPending:
    'Your payment is still being confirmed. This page will show the change once it is paid.',
  noInvoices: 'No invoices yet.',
  failedLoadInvoices: 'Failed to load the billing history',
  // web shell (not in the specification; honest notices of the web app)
  notAvailableYet: 'This part of Helix is not available yet.',
  cardPaymentNotAvailable: 'Card payment is not available yet.',
  newVersionAvailable: 'A new version is available.',
  offlineReady: 'Helix is ready to work offline.',
  unauthorizedPage: 'You are not allowed to see this page.',
  pageNotFound: 'This page does not exist.',
  noPlans: 'No plans are available right now.',

  // models, uploads, share and embed, views (added by the API; wording ours)
  modelUrlNameRule: 'Use lowercase words separated by hyphens, e.g. heart-anatomy',
  modelUrlNameTaken: 'This URL name is already used by another model.',
  modelFileRequired: 'Please choose the model file (.glb).',
  modelFileInvalid: 'The model file is not a valid glTF binary (.glb)',
  modelFileTooLarge: (mb: number) => `The model file is larger than ${mb} MB`,
  modelVersionConflict: 'This model was changed in the meantime. Reload it and try again.',
  modelDeleted: 'Model deleted successfully',
  modelColourInvalid: 'Please choose a colour like #5f51fb',
  unknownTenants: 'Some of the chosen tenants do not exist.',
  imageTypeNotAllowed: 'Only jpg, jpeg, png, svg and webp images are allowed',
  imageCheckUnavailable: 'The image could not be checked right now, please try again.',
  imageTooComplex:
    'This image is too complex to process (for example an SVG with heavy blur filters). Please upload a simpler image or a PNG/JPG.',
  imageCheckBusy: 'Another image of your organisation is being checked. Please try again in a few seconds.',
  imageUploadsTooMany:
    'You have uploaded many images in a short time. Please wait a few minutes and try again.',
  storageUnavailable: 'Files cannot be saved right now. Nothing was changed; please try again later.',
  queueUnavailable: 'This cannot be done right now, please try again in a minute.',
  // a dependency outage (503 with Retry-After; wording ours)
  serviceUnavailable: 'Helix is briefly unavailable. Please try again in a few seconds.',
  uploadTooManyFiles: 'Send the model file and one thumbnail at most.',
  uploadUnexpectedFile: 'This field does not take a file.',
  uploadFieldTooLarge: 'This field is too large.',
  uploadTooManyFields: 'The form has too many fields.',
  uploadInvalid: 'The upload could not be read.',
  viewLimitReached: 'View limit reached',
  /** The panel an embed, share page or viewer shows past the grace band (never a blank frame). */
  schoolViewLimitTitle: "This school's view limit is reached",
  schoolViewLimitText:
    'This model cannot be shown until more views are added or the next billing period starts. Please let your teacher or the account owner know.',
  usageExportFailed: 'The views could not be exported, please try again.',
  planNotActive: 'This model cannot be shown: the subscription is not active.',
  viewerLinkInvalid: 'This viewer link is not valid or has expired. Open the model again.',
  embedLinkInvalid: 'This link is not valid or is no longer available.',
  embedNotInPlan: 'Sharing and embedding are not included in your plan.',
  // transparent embeds and screen recording (issue 10; wording ours)
  transparentNotAllowed: 'Transparent backgrounds are not included in your plan or role.',
  transparentExclusive: 'Choose one of background, background_color and a transparent background.',
  recordNotAllowed: 'Screen recording is not included in your plan or role.',
  recordStart: 'Record',
  recordStop: 'Stop recording',
  recordNarration: 'Record my microphone',
  recordMicDenied:
    'The microphone could not be used (permission denied or no microphone), so no narration is recorded.',
  recordUnsupported: 'This browser cannot record the view. Try a current Chrome, Edge, Firefox or Safari.',
  recordHidden: 'Recording stopped because the tab was hidden.',
  recordMaxReached: (minutes: number) => `Recording stopped at the ${minutes}-minute maximum.`,
  recordFailed: 'The recording failed. The viewer still works; please try again.',
  recordReady: 'Your recording is ready.',
  recordDownload: 'Download',
  recordDiscard: 'Discard',
  // the viewer's AR and keyboard use (issue 20; wording ours)
  arView: 'View in AR',
  arPreparing: 'Preparing the model for AR…',
  arHint: 'Point the device at the floor or a table and move it slowly; tap to place the model.',
  arExit: 'Exit AR',
  arFailed: 'AR could not start on this device. The 3D view still works.',
  arTooLarge: 'This model is too large to show in AR on this device.',
  viewerParts: 'Parts of the model',
  viewerPartsHelp:
    'Use the arrow keys to move between parts; each one is highlighted in the view. Enter or Space shows it close up.',
  viewerKeysHelp:
    'Arrow keys turn the model, plus and minus zoom, R resets the view. Tab reaches the controls and the list of parts.',
  fileLinkInvalid: 'This file link is not valid or has expired.',
  // models area (web; not in the specification, wording ours)
  modelFileType: 'The model file must be a .glb file',
  thumbnailType: 'The thumbnail must be an image',
  modelSaved: 'Model saved successfully',
  deleteModelTitle: 'Delete model?',
  deleteModelBody: (name: string) => `Do you want to delete ${name}?`,
  noModels: 'No models yet.',
  noModelsMatch: 'No models match your search.',
  unlimitedViews: 'Unlimited Views',
  buyViewsNotAvailable: 'Buying views is not available yet.',
  viewerFailed: 'The viewer could not be opened.',
  linkUnavailable: 'This link is no longer available.',
  linkUnavailableHint: 'Ask the person who shared it for a new link.',
  clipboardFailed: 'Could not copy; please select the text and copy it.',
  noStatistics: 'No statistics to show.',
  // share and embed links page (not in the specification, wording ours)
  linksTitle: 'Links',
  noLinks: 'No share or embed links yet.',
  /** Lists at scale: the links search found nothing (wording ours). */
  noLinksMatch: 'No links match this search.',
  revokeLinkTitle: 'Revoke this link?',
  revokeLinkBody: 'Pages that show this link will stop showing the model within a few seconds.',
  linkRevoked: 'Link revoked',
  linkExpiryPast: 'The expiry date must be in the future.',
  failedLoadLinks: 'Failed to load Links',
  // where a link may be shown, and oEmbed (issue 20; not in the specification, wording ours)
  embedHostEmpty: 'Enter a site, like school.org or *.school.org.',
  embedHostNotDomain: (value: string) =>
    `"${value}" is not a site's domain: enter only the domain, like school.org or *.school.org (no http://, port or path).`,
  embedHostWildcard: (value: string) => `"${value}": a * may only start the domain, as in *.school.org.`,
  embedHostTooBroad: (value: string) => `"${value}" would allow every site under a whole top-level domain.`,
  embedHostInvalid: (value: string) => `"${value}" is not a valid domain.`,
  embedHostsTooMany: (max: number) => `A link may name at most ${max} sites.`,
  embedHostsLabel: 'Only on these sites (optional)',
  embedHostsHelp:
    'Leave empty to allow any site. With sites listed, the model shows (and counts views) only inside pages of those sites.',
  embedHostsAny: 'Any site',
  embedHostsUpdated: 'Sites updated',
  embedHostsTitle: 'Where this link may be shown',
  embedHostNotAllowed: 'This model is not available on this site.',
  embedHostNotAllowedHint:
    'The school that shared it allows it only on its own sites. Open it from the page where your teacher placed it.',
  oembedUrlRequired: 'Give the address of a share or embed link in url.',
  oembedUrlInvalid: 'url must be a full address starting with http:// or https://.',
  oembedSizeInvalid: (name: string) => `${name} must be a whole number of pixels from 1.`,
  oembedFormatNotImplemented: 'Only format=json is available.',
  // users of a tenant, invites, bulk invite (D; not in the specification, wording ours)
  userDeleted: 'User deleted successfully',
  ownerCannotBeDeleted: 'The owner of the subscription cannot be deleted.',
  adminCannotDeleteUsers: 'An admin cannot delete users from this screen.',
  inviteAlreadyAccepted: 'This user has already set a password.',
  failedLoadUser: 'Failed to load User',
  noUserModelViews: 'No model views yet.',
  // A read that failed (ui/query-state.tsx): asks it again.
  loadAgain: 'Try again',
  loading: 'Loading',
  noTenantUsers: 'No users yet. Invite your colleagues with Add Users.',
  totalUsers: (n: number, limit: number) => `Total Users: ${n}/${limit}`,
  bulkRowMissingName: 'Missing name',
  bulkRowInvalidEmail: 'Invalid e-mail',
  bulkRowDuplicate: 'Duplicate in the file (removed)',
  bulkRowExisting: 'Already a user',
  bulkRowTooLong: (field: string, max: number) => `${field} is longer than ${max} characters`,
  bulkFileType: 'Please upload a .csv or .xlsx file.',
  bulkFileTooLarge: (mb: number) => `The file is larger than ${mb} MB.`,
  bulkTooManyRows: (max: number) => `The file has more than ${max} rows.`,
  bulkNoRows: 'The file has no rows to invite.',
  bulkFileUnreadable: 'The file could not be read. Use the sample file as a template.',
  bulkRowsInvalid: 'Some rows have problems: fix them in the file and upload it again.',
  bulkExistingUsers: 'These users already exist: remove them from the file and try again.',
  bulkSending: 'Sending the invitations',
  bulkFailedRows: 'These invitations could not be sent:',
  bulkBatchNotFound: 'This bulk invite was not found.',
  noBulkRows: 'Upload a file to see its rows here.',
  // profile and branding (added by the API and web; wording ours)
  oldPasswordWrong: 'The old password is not correct.',
  passwordsDifferent: 'The new password must differ from the old one.',
  brandNameRule:
    'Use 2 to 40 lowercase letters, digits and hyphens, starting and ending with a letter or digit',
  brandNameReserved: 'This brand name is reserved, please choose another one.',
  brandNameTaken: 'This brand name is already used.',
  domainRule: 'Please enter a domain name like models.example.com',
  domainIsPortal: 'This is the address of Helix itself; enter a domain of your own.',
  domainTaken: 'This domain is already used.',
  textColourRule: 'Choose black or white',
  brandingNotForAdmins: 'Platform administrators have no branding of their own.',
  failedLoadBranding: 'Failed to load Branding',
  // platform administration: roles, permissions, users, newsletter (not in the specification; wording ours)
  roleDeleted: 'Role deleted successfully',
  builtInRoleLocked: 'The built-in Admin and User roles cannot be deleted or renamed.',
  rolePermissionsRequired: 'Please assign at least one permission',
  adminRoleKeepsRoleAccess: 'The Admin role must keep Role.listing.view and Role.update.',
  unknownRoles: 'Some of the chosen roles do not exist.',
  rolesRequired: 'Please choose at least one role',
  ownAdminRoleKept: 'You cannot take the Admin role away from yourself.',
  rolesAssigned: 'Roles assigned successfully',
  failedAssignRoles: 'Failed to assign Roles',
  failedLoadSubscribers: 'Failed to load Subscribers',
  noRoles: 'No roles yet.',
  noUsers: 'No users yet.',
  // The users lists' search and the tenant picker (issue 18 point 4; wording ours)
  usersNoMatch: 'No users match this search.',
  tenantsNoMatch: 'No tenants match this search.',
  listIdsInvalid: 'The ids must be whole numbers separated by commas, at most 100.',
  noSubscribers: 'No subscribers yet.',
  /** Lists at scale: the newsletter search found nothing (wording ours). */
  noSubscribersMatch: 'No subscribers match this search.',
  userAdded: 'User added successfully',
  planNotFound: 'This plan is not available.',
  planTypeMismatch: 'This plan does not match the chosen subscription type.',
  unsubscribed: 'You have been removed from the Helix newsletter.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid.',

  // offline outbox (issue 8; wording ours)
  versionConflict:
    'This record was changed by someone else meanwhile. Review it, then retry on the current version or discard your edit.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for another request.',
  idempotencyInProgress:
    'The first request with this Idempotency-Key is still running; try again in a moment.',
  idempotencyKeyInvalid:
    'The Idempotency-Key header must be 8 to 200 letters, digits, dots, colons, dashes or underscores.',
  ifMatchInvalid: 'The If-Match header must be the version of the record (a whole number).',
  offlineSavedAt: (time: string) => `Offline: showing what was saved at ${time}`,
  savedForLater:
    'You are offline: the edit is saved on this device and will be sent when the connection is back.',
  pendingSync: 'Pending sync',
  outboxTitle: 'Outbox',
  outboxEmpty: 'No edits are waiting to be sent.',
  outboxSyncNow: 'Sync now',
  outboxRetryCurrent: 'Retry on the current version',
  outboxRetry: 'Retry',
  outboxDiscard: 'Discard',
  outboxDiscardConfirm: 'Discard this edit? It will not be sent to the server.',
  outboxStates: { pending: 'Pending', syncing: 'Syncing', refused: 'Refused', conflict: 'Conflict' },
  logoutWithQueuedTitle: 'Edits not sent yet',
  logoutWithQueued: (count: number) =>
    `${count} edit${count === 1 ? ' is' : 's are'} waiting in the Outbox. Logging out discards ${count === 1 ? 'it' : 'them'}.`,
  logoutAnyway: 'Log out anyway',

  // fast-track support (issue 10; not in the specification, wording ours)
  supportSubjectRequired: 'Please enter a subject',
  supportMessageRequired: 'Please describe what you need help with',
  supportRequestSent: (target: string) =>
    `Your request has been sent. We aim to answer within ${target}; a copy is on its way to your e-mail.`,
  supportTooMany:
    'You have sent several support requests in a short time. Please wait an hour and try again.',
  supportStatusUpdated: 'Status updated',
  failedLoadSupport: 'Failed to load Support Requests',
  noSupportRequests: 'No support requests yet.',
  /** Lists at scale: the support search or filters found nothing (wording ours). */
  noSupportRequestsMatch: 'No support requests match this search or filter.',

  // models kept offline on a device (not in the specification; wording ours)
  keepOffline: 'Keep offline',
  keptOffline: 'Kept offline',
  removeOffline: 'Remove from this device',
  pinnedSaved: (name: string) => `${name} is kept on this device for offline use.`,
  pinnedRemoved: (name: string) => `${name} was removed from this device.`,
  pinFailed: 'The model could not be kept offline. Check the connection and the free space, then try again.',
  pinNotSupported: 'This browser cannot keep models offline.',
  pinnedStorage: (used: string, left: string) => `On this device: ${used} used, ${left} free`,
  pinnedStoragePersistent: 'Kept until you remove it',
  pinnedStorageBestEffort: 'The browser may clear it when space runs low',
  viewerOffline: 'Offline: showing the copy kept on this device.',
  viewerNotPinned: 'You are offline and this model is not kept on this device.',
  offlineViewKeyRule: 'The view key must be 16 to 64 letters, digits, - or _.',
  offlineViewInFuture: 'The view time is in the future.',
  offlineViewTooOld: (days: number) => `Views made offline are counted for ${days} days; this one is older.`,
  offlineViewKeyReused: 'This view key was already used for another view.',
  offlineDeviceIdRule: 'The device id must be 16 to 64 letters, digits, - or _.',
  offlineCopyIdRule: 'The offline copy id must be 16 to 64 letters, digits, - or _.',
  offlineViewsTooMany: 'Too many views sent from this device at once; the rest will be sent shortly.',

  // Bulk files (issue 18; not in the specification, wording ours)
  bulkNoEmailColumn:
    'No e-mail column was found. The first row must name the columns, for example Name, Email, Note (see the sample file).',
  bulkReadAs: (encoding: string) =>
    `This file is not saved as UTF-8; it was read as ${encoding}. Check the names below: if letters look wrong, save the file as "CSV UTF-8" and upload it again.`,
  bulkUnreadableCharacters:
    'Some characters of this file could not be read (shown as \uFFFD). Save the file as "CSV UTF-8" and upload it again.',
  bulkIgnoredColumns: (columns: string) => `Columns not used: ${columns}.`,
  bulkReading: 'Reading the file',
  bulkRowsWithProblems: (problems: number, valid: number) =>
    `${problems} row${problems === 1 ? ' has' : 's have'} problems. Fix ${problems === 1 ? 'it' : 'them'} in the file and upload it again, or send the ${valid} valid row${valid === 1 ? '' : 's'} now.`,
  bulkSendAll: (n: number) => `Send ${n} invitation${n === 1 ? '' : 's'}`,
  bulkSendValid: (n: number) => `Send the ${n} valid row${n === 1 ? '' : 's'}`,
  bulkDownloadProblems: (n: number) => `Download the ${n} row${n === 1 ? '' : 's'} with problems`,
  bulkExistingMarked: 'Some addresses are already users: they are marked below. You can send the other rows.',
  bulkRowsRefused: 'The server refused some rows: they are marked below. You can send the other rows.',

  // Links page
  linkCopied: 'Copied',
  linkKindShare: 'Share',
  linkKindEmbed: 'Embed',
  linkKindUnknown: 'Share or embed',
  linkUrlUnavailable:
    'The address of this link was shown once, when it was made, and is not kept. Make a new link to get one you can copy here.',
  linkUrlRevoked: 'A revoked link no longer opens its model.',
  linkExpiryTitle: 'Change expiry',
  linkExpiryUpdated: 'Expiry updated',
  linkNoExpiry: 'No expiry',
  linkExpiryPick: 'Pick a day, or choose No expiry.',
  linkFeaturesAll: 'All features',
  linkFeaturesNone: 'No features',
  linkFeaturesAllExcept: (names: string) => `All except ${names}`,
  linkRevokedUnchangeable: 'A revoked link cannot be changed.',

  // Passwords
  /** Under every new-password field (sign-up, set password, add user): the one rule, said before it bites. */
  passwordRuleHint: 'At least 8 characters.',

  // Audit log (issue 18 point 11; not in the specification, wording ours)
  auditDateInvalid: 'Please enter a date and time.',
  auditActionInvalid: 'Unknown action.',
  queuedAtInvalid: 'X-Queued-At must be an ISO date and time.',
  auditEmpty: 'No changes recorded yet.',
  auditNoMatch: 'No changes match these filters.',
  failedLoadAudit: 'Failed to load the audit log',
  auditExportFailed: 'The audit log could not be exported, please try again.',

  // Invitation page and branded e-mails (issue 18 points 5 and 6; not in the specification, wording ours)
  invitationTitle: (school: string) => `Join ${school}`,
  invitationIntro: (school: string) => `You were invited to ${school} on Helix. Set a password to join.`,
  invitationEmailFixed: 'The invitation was sent to this address.',
  invitationJoin: 'Join',
  invitationLoading: 'Opening your invitation',
  invitationNoToken: 'This page opens from the link in your invitation e-mail.',
  invitationUnknown:
    'This invitation link is not valid. Check that you opened the whole link from the e-mail.',
  invitationExpired: (expiredOn: string) => `This invitation expired on ${expiredOn}.`,
  invitationUsed: 'This invitation has already been used. Sign in with the password you set.',
  invitationAskNew: (inviter: string, school: string) =>
    `Ask ${inviter} at ${school} to send you a new invitation. If you received a newer invitation, use the link in that e-mail.`,
  invitationAskSomeone:
    'Ask the person who invited you to send a new invitation. If you received a newer invitation, use the link in that e-mail.',
  invitationSignIn: 'Go to sign in',
  invitationAskButton: 'Ask for a new invitation',
  invitationNewerSent:
    'A newer invitation was already sent to your address. Open the link in that e-mail (check your spam folder too).',
  invitationAsked: (school: string) =>
    `We asked ${school} to send you a new invitation. It will come by e-mail to the same address.`,
  invitationFailedLoad: 'The invitation could not be opened. Check your connection and try again.',
  /** The invitation e-mail's expiry sentence; `at` is e.g. "10 December 2026 at 14:00 UTC". */
  invitationExpiresAt: (at: string) => `This invitation expires on ${at}.`,
  termsLabel: 'Terms of Service',
  privacyLabel: 'Privacy Policy',
  // Lists at scale (issue 18 point 4; not in the specification, wording ours)
  listPageInvalid: 'The page must be a whole number from 1.',
  listPageSizeInvalid: 'The page size must be a whole number from 1 to 100.',
  listSearchTooLong: 'The search may be at most 200 characters.',
  listSortInvalid: 'This list cannot be sorted that way.',
  listOrderInvalid: 'The order must be asc or desc.',
  statsUsersEmpty: 'No users yet.',
  statsUsersNoMatch: 'No users match this search.',
  failedLoadStatsUsers: 'Failed to load the users statistics',
  failedLoadStats: 'Failed to load the statistics',
  // LTI 1.3 (issue 20 point 3; not in the specification, wording ours; docs/lti.md)
  ltiNameRequired: 'Please enter a name for this platform.',
  ltiIssuerRequired: "Please enter the platform's issuer (its address, e.g. https://moodle.school.org).",
  ltiClientIdRequired: 'Please enter the client ID the platform gave Helix.',
  ltiDeploymentRequired: 'Please enter at least one deployment ID.',
  ltiDeploymentInvalid: 'A deployment ID is at most 255 characters, without spaces or control characters.',
  ltiUrlInvalid: 'Please enter a full http(s) address.',
  ltiHttpsRequired: 'Learning platforms must be reached over https.',
  ltiPlatformTaken: 'This issuer and client ID are already registered with Helix.',
  ltiPlatformSaved: 'Platform saved.',
  ltiPlatformDeleted: 'Platform removed.',
  ltiKeyRotated: 'A new key is in use; the previous one stays published for 7 days.',
  failedLoadLti: 'Failed to load the LMS settings',
  noLtiPlatforms:
    'No learning platform registered yet. Register one with the values your LMS shows for Helix.',
  ltiErrorTitle: 'Helix could not open this activity',
  ltiLoginContinueTitle: 'Continue to your learning platform',
  ltiLoginContinue: (host: string) =>
    `To open this activity, sign-in continues at ${host}, the address your school registered for its learning platform. Continue only if you know this address.`,
  ltiLoginContinueButton: (host: string) => `Continue to ${host}`,
  ltiUnknownPlatform:
    'This learning platform is not registered with Helix. Your LMS administrator registers it in Helix (Settings > LMS) with its issuer and client ID.',
  ltiAskClientId:
    'Several Helix registrations use this issuer: the platform must send its client ID with the login. Ask your LMS administrator.',
  ltiUnknownDeployment:
    'This deployment of Helix is not registered. Your LMS administrator adds its deployment ID in Helix (Settings > LMS).',
  ltiLoginInvalid:
    'The learning platform sent an incomplete login request (iss, login_hint and target_link_uri are required).',
  ltiLaunchInvalid: 'The learning platform sent an incomplete launch (id_token and state are required).',
  ltiStateInvalid: 'This launch has expired or was already used. Open the activity again from your course.',
  ltiTokenInvalid: 'The launch could not be verified: its signature or its claims are not valid.',
  ltiTokenExpired: 'The launch has expired. Open the activity again from your course.',
  ltiWrongAudience: 'The launch was not made for Helix (its audience is another client ID).',
  ltiNonceInvalid: 'The launch was already used or does not belong to this login. Open the activity again.',
  ltiKeysUnavailable:
    "Helix could not read the learning platform's public keys. Ask your LMS administrator to check the keyset URL in Helix.",
  ltiMessageUnsupported: 'Helix cannot handle this kind of launch.',
  ltiNoModel:
    'This activity does not say which Helix model to show. Ask your teacher to add it again with "Select content".',
  ltiModelGone: 'This model is no longer available to your school.',
  ltiPlanInactive: "Your school's Helix subscription is not active, so the model cannot be shown.",
  ltiDeepLinkExpired: 'This selection has expired. Close it and choose "Select content" again.',
  ltiPickNothing: 'Choose at least one model.',
  ltiPickOne: 'Choose one model.',
  statsClassesEmpty: 'No class has opened a model from a learning platform yet.',
  failedLoadStatsClasses: 'Failed to load the views per class',
  // A table row's details (ui/responsive-table.tsx: columns folded on a narrow screen; wording ours)
  rowDetails: 'Details',
  showRowDetails: 'Show details',
  hideRowDetails: 'Hide details',
} as const;
