-- AlterTable
ALTER TABLE "TenantSubscription" ADD COLUMN     "changeInvoiceId" TEXT,
ADD COLUMN     "paymentActionInvoiceId" TEXT,
ADD COLUMN     "paymentActionUrl" TEXT,
ADD COLUMN     "stripeReadAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "TrialCard" (
    "fingerprint" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrialCard_pkey" PRIMARY KEY ("fingerprint")
);

-- CreateTable
CREATE TABLE "BillingReceipt" (
    "invoiceId" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BillingReceipt_pkey" PRIMARY KEY ("invoiceId")
);
